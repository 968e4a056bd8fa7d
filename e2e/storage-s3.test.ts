import { randomBytes } from 'node:crypto';
import { Client } from 'minio';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { startS3Server, type S3Server } from '../services/storage/test/s3rver.harness';
import { attachmentTable, json, rawGet, sha256, signup, upload } from './storage-e2e.helpers';

let s3: S3Server;
let stack: TestStack;
let token: string;

beforeAll(async () => {
  s3 = await startS3Server();
  stack = await startTestStack(allServices, {
    SVC_STORAGE: 's3', SVC_S3_ENDPOINT: s3.endpoint, SVC_S3_BUCKET: 'tabula-e2e', SVC_S3_REGION: 'us-east-1',
    SVC_S3_ACCESS_KEY: s3.accessKey, SVC_S3_SECRET_KEY: s3.secretKey, SVC_S3_PATH_STYLE: 'true',
    SVC_PUBLIC_URL: 'https://tabula.example.com', SVC_ATTACHMENT_FIELD_SIZE: String(8 * 1024 * 1024),
  });
  token = await signup(stack.url, 'storage-s3@example.com');
});
afterAll(async () => {
  await stack.stop();
  await s3.stop();
});

/** The path part of an absolute signed URL, requested from the test stack. */
const localPart = (absolute: string) => new URL(absolute).pathname;

describe('storage on S3 (s3rver)', () => {
  it('answers url + signedUrl; bytes come back through /dltemp and downloadAttachment; limit+1 → 413 with no object', async () => {
    const bytes = randomBytes(6 * 1024 * 1024 + 3);
    const res = await upload(stack.url, token, [{ name: 'big.bin', data: bytes }]);
    expect(res.status).toBe(200);
    const [a] = res.body;
    expect(a.url).toMatch(new RegExp(`^${s3.endpoint}/tabula-e2e/uploads/big_[0-9a-f]{16}\\.bin$`));
    expect(a.signedUrl).toMatch(/^https:\/\/tabula\.example\.com\/dltemp\//);
    expect(a.path).toBeUndefined();
    expect(sha256((await rawGet(stack.url, localPart(a.signedUrl))).body)).toBe(sha256(bytes));

    const { baseId, tableId, filesColumnId } = await attachmentTable(stack.url, token);
    const row = await json(stack.url, token, 'POST', `/api/v1/db/data/noco/${baseId}/${tableId}`, { Name: 's3', Files: [a] });
    expect(row.status).toBe(200);
    const read = await json(stack.url, token, 'GET', `/api/v1/db/data/noco/${baseId}/${tableId}/${row.body.Id}`);
    expect(read.body.Files[0].signedUrl).toMatch(/^https:\/\/tabula\.example\.com\/dltemp\//);
    const dl = await rawGet(stack.url, `/api/v2/downloadAttachment/${tableId}/${filesColumnId}/${row.body.Id}?urlOrPath=${encodeURIComponent(a.url)}`, { 'xc-auth': token });
    expect(sha256(dl.body)).toBe(sha256(bytes));

    const refused = await upload(stack.url, token, [{ name: 'over.bin', data: randomBytes(8 * 1024 * 1024 + 1) }]);
    expect(refused.status).toBe(413);
    const client = new Client({ endPoint: '127.0.0.1', port: Number(new URL(s3.endpoint).port), useSSL: false, accessKey: s3.accessKey, secretKey: s3.secretKey });
    const names: string[] = [];
    for await (const o of client.listObjectsV2('tabula-e2e', 'uploads/', true)) names.push((o as { name: string }).name);
    expect(names).toEqual([a.url.slice(`${s3.endpoint}/tabula-e2e/`.length)]);
  });
});
