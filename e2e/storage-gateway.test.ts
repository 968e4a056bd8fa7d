import { randomBytes } from 'node:crypto';
import { createTestDatabase, describeWithBackend, startTestCluster, startTestStack, type TestCluster, type TestDatabase, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { attachmentTable, json, rawGet, sha256, signup, upload } from './storage-e2e.helpers';

const MIB = 1024 * 1024;
const twenty = randomBytes(20 * MIB);
const tooBig = randomBytes(20 * MIB + 1);

/**
 * The must-show of the storage issue, run against a gateway URL: 20 MiB
 * passes (same bytes back from /download, /dltemp and downloadAttachment),
 * 20 MiB + 1 byte is a 413 with nothing stored.
 */
async function twentyMiB(url: string, label: string, token: string): Promise<void> {
  const { baseId, tableId, filesColumnId } = await attachmentTable(url, token);
  const ok = await upload(url, token, [{ name: 'twenty.bin', data: twenty }]);
  expect(ok.status).toBe(200);
  const [a] = ok.body;
  expect(a.size).toBe(20 * MIB);
  const record = await json(url, token, 'POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { Name: 'big', Files: [a] });
  expect(record.status).toBe(200);
  const sums = {
    upload: sha256(twenty),
    download: sha256((await rawGet(url, `/${a.path}`, { 'xc-auth': token })).body),
    dltemp: sha256((await rawGet(url, `/${a.signedPath}`)).body),
    downloadAttachment: sha256((await rawGet(url, `/api/v2/downloadAttachment/${tableId}/${filesColumnId}/${record.body.Id}?urlOrPath=${encodeURIComponent(a.path)}`, { 'xc-auth': token })).body),
  };
  console.log(`${label}: 20 MiB checksums ${JSON.stringify(sums)}`);
  expect(new Set(Object.values(sums)).size).toBe(1);
  const usage = await json(url, token, 'GET', `/api/v1/db/storage/usage/${baseId}`);
  expect(usage.body).toEqual({ baseId, files: 1, bytes: 20 * MIB });

  const refused = await upload(url, token, [{ name: 'too-big.bin', data: tooBig }]);
  console.log(`${label}: 20 MiB + 1 byte → ${refused.status} ${JSON.stringify(refused.body)}`);
  expect(refused.status).toBe(413);
}

describe('storage through the gateway, standalone mode', () => {
  let stack: TestStack;
  let owner: string;
  beforeAll(async () => {
    stack = await startTestStack(allServices);
    owner = await signup(stack.url, 'storage-owner@example.com');
  });
  afterAll(async () => { await stack.stop(); });

  it('20 MiB passes with identical bytes from /download, /dltemp and downloadAttachment; 20 MiB + 1 → 413', async () => {
    await twentyMiB(stack.url, 'standalone', owner);
  });

  it('downloadAttachment: a caller with no role in the base sees a missing table; a row without the file is a 404', async () => {
    const token = owner;
    const stranger = await signup(stack.url, 'dl-stranger@example.com');
    const { baseId, tableId, filesColumnId } = await attachmentTable(stack.url, token);
    const [a] = (await upload(stack.url, token, [{ name: 'x.txt', data: Buffer.from('x') }])).body;
    const row = await json(stack.url, token, 'POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { Name: 'r', Files: [a] });
    const empty = await json(stack.url, token, 'POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { Name: 'e' });
    const path = (id: number) => `/api/v2/downloadAttachment/${tableId}/${filesColumnId}/${id}?urlOrPath=${encodeURIComponent(a.path)}`;
    const own = await rawGet(stack.url, path(row.body.Id), { 'xc-auth': token });
    expect({ status: own.status, body: own.body.toString() }).toEqual({ status: 200, body: 'x' });
    expect((await rawGet(stack.url, path(row.body.Id), { 'xc-auth': stranger })).status).toBe(404); // another tenant's table answers as a missing one (issue 17 role matrix)
    expect((await rawGet(stack.url, path(row.body.Id))).status).toBe(401);
    expect((await rawGet(stack.url, path(empty.body.Id), { 'xc-auth': token })).status).toBe(404);
    expect((await rawGet(stack.url, path(row.body.Id).replace(/urlOrPath=.*/, 'urlOrPath=..%2F..%2Fetc%2Fpasswd'), { 'xc-auth': token })).status).toBe(400);
  });
});

describeWithBackend('redis', 'storage through the gateway, cluster mode (separate processes)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data', 'storage'], database.url);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
  });

  it('20 MiB passes with identical bytes from /download, /dltemp and downloadAttachment; 20 MiB + 1 → 413', async () => {
    await twentyMiB(cluster.gatewayUrl, 'cluster', await signup(cluster.gatewayUrl, 'storage-cluster@example.com'));
  });
});
