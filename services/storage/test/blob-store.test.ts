import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Client } from 'minio';
import { LocalBlobStore } from '../src/adapters/local-blob-store';
import { S3BlobStore } from '../src/adapters/s3-blob-store';
import { blobStoreContract } from './blob-store.contract';
import { startS3Server, type S3Server } from './s3rver.harness';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

const root = mkdtempSync(path.join(os.tmpdir(), 'tabula-blobs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
blobStoreContract('local', async () => new LocalBlobStore(root), async () => walk(root).filter((f) => f.endsWith('.part')));

let s3: S3Server;
beforeAll(async () => { s3 = await startS3Server(); });
afterAll(async () => { await s3.stop(); });
blobStoreContract('s3 (s3rver)', async () => new S3BlobStore({
  endpoint: s3.endpoint, bucket: 'contract-bucket', region: 'us-east-1', accessKey: s3.accessKey, secretKey: s3.secretKey, pathStyle: true,
}), async () => {
  const client = new Client({ endPoint: '127.0.0.1', port: Number(new URL(s3.endpoint).port), useSSL: false, accessKey: s3.accessKey, secretKey: s3.secretKey });
  const names: string[] = [];
  for await (const o of client.listObjectsV2('contract-bucket', 'f/', true)) names.push((o as { name: string }).name);
  return names;
});
