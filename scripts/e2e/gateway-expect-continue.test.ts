import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';
import { call, setupTable } from './hooks-e2e.helpers';

const run = promisify(execFile);

/**
 * Cluster mode, the real curl binary with its default headers: a body over
 * 1 MiB makes curl send `Expect: 100-continue`, which the gateway's proxy used
 * to answer with 503 "Service 'data' is unavailable".
 */
describeWithBackend('redis', 'gateway proxy: curl uploads over 1 MiB (Expect: 100-continue) in cluster mode', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-curl-'));
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data'], database.url);
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a 2 MB bulk insert sent by curl answers 200 and stores every row', async () => {
    const t = await setupTable(cluster.gatewayUrl, `curl-${Date.now()}@example.com`);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ Name: `row-${i}-${'x'.repeat(2000)}`, Qty: i }));
    const file = path.join(dir, 'bulk.json');
    writeFileSync(file, JSON.stringify(rows));
    const url = `${cluster.gatewayUrl}/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`;
    const { stdout, stderr } = await run('curl', [
      '-sS', '-v', '-o', path.join(dir, 'answer.json'), '-w', '%{http_code} %{size_upload}',
      '-H', 'content-type: application/json', '-H', `xc-auth: ${t.token}`, '--data-binary', `@${file}`, url,
    ], { maxBuffer: 16 * 1024 * 1024 });
    const [status, uploaded] = stdout.split(' ');
    console.log(`curl: HTTP ${status}, ${uploaded} bytes uploaded; ${stderr.split('\n').filter((l) => /^[<>] (Expect|HTTP)/.test(l)).join(' | ')}`);
    expect(stderr).toMatch(/^> Expect: 100-continue/m);
    expect(Number(uploaded)).toBeGreaterThan(2_000_000);
    expect(status).toBe('200');
    const count = await call(cluster.gatewayUrl, t.token, 'GET', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}/count`);
    expect(count.body).toEqual({ count: 1000 });
  }, 60_000);
});
