import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { BlobStore } from '../src/adapters/blob-store';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A stream that yields `bytes` in 64 KiB chunks, then fails. */
function failingStream(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) { this.destroy(new Error('client went away')); return; }
      const n = Math.min(65536, bytes - sent);
      sent += n;
      this.push(randomBytes(n));
    },
  });
}

/**
 * The blob store contract: every backend passes the same suite
 * (local disk, S3 through s3rver). `make` returns a fresh, empty store.
 */
export function blobStoreContract(name: string, make: () => Promise<BlobStore>, leftovers: () => Promise<string[]>): void {
  describe(`blob store contract: ${name}`, () => {
    let store: BlobStore;
    beforeAll(async () => { store = await make(); });

    it('put then get returns identical bytes; stat gives the size', async () => {
      const bytes = randomBytes(6 * 1024 * 1024 + 17);
      await store.put('a/b/file_1.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
      expect((await store.stat('a/b/file_1.bin'))?.size).toBe(bytes.length);
      expect(sha(await collect((await store.get('a/b/file_1.bin'))!))).toBe(sha(bytes));
    });

    it('a range returns exactly those bytes', async () => {
      const bytes = randomBytes(100_000);
      await store.put('r/range.bin', Readable.from([bytes]), { contentType: 'application/octet-stream' });
      const part = await collect((await store.get('r/range.bin', { start: 1000, end: 1999 }))!);
      expect(part.equals(bytes.subarray(1000, 2000))).toBe(true);
    });

    it('empty objects are stored', async () => {
      await store.put('e/empty.txt', Readable.from([Buffer.alloc(0)]), { contentType: 'text/plain' });
      expect((await store.stat('e/empty.txt'))?.size).toBe(0);
      expect((await collect((await store.get('e/empty.txt'))!)).length).toBe(0);
    });

    it('missing objects: get and stat answer null, delete is fine', async () => {
      expect(await store.get('no/such.bin')).toBeNull();
      expect(await store.stat('no/such.bin')).toBeNull();
      await expect(store.delete('no/such.bin')).resolves.toBeUndefined();
    });

    it('delete removes the object', async () => {
      await store.put('d/gone.txt', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
      await store.delete('d/gone.txt');
      expect(await store.stat('d/gone.txt')).toBeNull();
    });

    it('a failing stream stores nothing and leaves no partial data', async () => {
      await expect(store.put('f/failed.bin', failingStream(7 * 1024 * 1024), { contentType: 'application/octet-stream' })).rejects.toThrow();
      expect(await store.stat('f/failed.bin')).toBeNull();
      expect(await leftovers()).toEqual([]);
    });

    it('unsafe keys are refused before touching the backend', async () => {
      for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'a/./b', 'a//b', 'a/\0b', '%2e%2e/x', '.hidden']) {
        await expect(store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' })).rejects.toThrow(/unsafe/);
        await expect(store.get(key)).rejects.toThrow(/unsafe/);
      }
    });
  });
}
