import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type BlobStat, type BlobStore, type ByteRange, type PutOptions } from './blob-store';

/**
 * Files under one root directory. A put writes `<dir>/.<name>.<rand>.part`
 * and renames it into place when the stream ended well; on any error the
 * part file is removed, so a refused upload leaves nothing behind.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute file of a key; refuses anything that would leave the root. */
  fileOf(key: string): string {
    assertSafeKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error('blob key leaves the storage root');
    return file;
  }

  async put(key: string, body: Readable, _options: PutOptions): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const part = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.part`);
    try {
      await pipeline(body, createWriteStream(part, { flags: 'wx', mode: 0o640 }));
      await rename(part, file);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const file = this.fileOf(key);
    if (!(await this.stat(key))) return null;
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<BlobStat | null> {
    try {
      const s = await stat(this.fileOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  urlOf(): string | undefined {
    return undefined;
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }
}
