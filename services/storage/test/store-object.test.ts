import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { PassThrough, Readable, pipeline } from 'node:stream';
import type { Principal } from '@tabula/auth';
import { LocalBlobStore } from '../src/adapters/local-blob-store';
import type { PutOptions } from '../src/adapters/blob-store';
import { storeObject } from '../src/domain/store-object';
import type { StoragePorts } from '../src/ports';

/**
 * The per-file limit is enforced while streaming: a file over it is refused
 * as the byte that crosses it passes, so the blob store never receives more
 * than the limit (a check at the end of the stream would let the whole file
 * reach the disk first). Measured in bytes, not time.
 */
const LIMIT = 1024 * 1024;
const CHUNK = 64 * 1024;
const OVER = 8 * 1024 * 1024;

/** The real local store, counting the bytes handed to its file writer. */
class CountingStore extends LocalBlobStore {
  written = 0;
  override async put(key: string, body: Readable, options: PutOptions): Promise<void> {
    const counter = new PassThrough();
    counter.on('data', (c: Buffer) => { this.written += c.length; });
    // pipeline passes the body's error (the 413) on to the counter, which the store's own pipeline sees
    pipeline(body, counter, () => undefined);
    return super.put(key, counter, options);
  }
}

/** limit + OVER bytes in CHUNK pieces, produced only when read (a client sending as fast as it is read). */
function source(total: number): Readable {
  let produced = 0;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (produced >= total) { this.push(null); return; }
      const n = Math.min(CHUNK, total - produced);
      produced += n;
      this.push(Buffer.alloc(n, 7));
    },
  });
}

const root = mkdtempSync(path.join(os.tmpdir(), 'tabula-store-object-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function portsWith(blobs: LocalBlobStore): StoragePorts {
  // a refused file never reaches the database: only the config and the blob store are used
  return { config: { SVC_ATTACHMENT_FIELD_SIZE: LIMIT }, blobs } as unknown as StoragePorts;
}

const target = { prefix: 'uploads', scope: 'private' as const, principal: { kind: 'user', id: 'us1' } as Principal };

describe('storeObject: the size limit is enforced while the bytes stream', () => {
  it('refuses a file of limit + 8 MiB with 413 once the limit is crossed; the blob store receives less than limit + one chunk', async () => {
    const blobs = new CountingStore(root);
    const body = source(LIMIT + OVER);
    const err = await storeObject(portsWith(blobs), { body, fileName: 'big.bin' }, target).catch((e: unknown) => e as { status?: number });
    expect(err).toMatchObject({ status: 413 });
    // bytes ever written stay under limit + one chunk
    expect(blobs.written).toBeLessThan(LIMIT + CHUNK);
    expect(readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.part') || String(f).endsWith('.bin'))).toEqual([]);
  });
});
