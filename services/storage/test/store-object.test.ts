import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { PassThrough, Readable, pipeline } from 'node:stream';
import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import { createKnex, runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { LocalBlobStore } from '../src/adapters/local-blob-store';
import type { PutOptions } from '../src/adapters/blob-store';
import { discardObjects, storeObject } from '../src/domain/store-object';
import { LinkSigner } from '../src/domain/link-signer';
import { ObjectModel } from '../src/repositories/object.repository';
import { ObjectBaseModel } from '../src/repositories/object-bases.repository';
import type { StoragePorts } from '../src/ports';
import { migrations } from '../migrations';

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
    expect(err).toMatchObject({ status: 413, message: `File larger than ${LIMIT} bytes (SVC_ATTACHMENT_FIELD_SIZE)` });
    // bytes ever written stay under limit + one chunk
    expect(blobs.written).toBeLessThan(LIMIT + CHUNK);
    expect(readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.part') || String(f).endsWith('.bin'))).toEqual([]);
    // the rest of the refused file is drained (read, not stored), so the request can still be answered
    const drained = body.readableEnded || await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      body.once('end', () => { clearTimeout(timer); resolve(true); });
    });
    expect(drained).toBe(true);
  });
});

describe('storeObject: what is stored, and nothing when a step fails', () => {
  let database: TestDatabase;
  let db: Knex;
  const signer = new LinkSigner('0123456789abcdef0123456789abcdef', 7200, () => 1_800_000_000_000);
  const dbRoot = mkdtempSync(path.join(os.tmpdir(), 'tabula-store-object-db-'));
  /** The local store, remembering the content type each file was put with (S3 stores it with the object). */
  const types = new Map<string, string | undefined>();
  const blobs = new (class extends LocalBlobStore {
    override async put(key: string, body: Readable, options: PutOptions): Promise<void> {
      types.set(key, options.contentType);
      return super.put(key, body, options);
    }
  })(dbRoot);
  const ports = () => ({ config: { SVC_ATTACHMENT_FIELD_SIZE: LIMIT }, blobs, db, signer }) as unknown as StoragePorts;
  const files = () => readdirSync(dbRoot, { recursive: true }).map(String).filter((f) => /\.[a-z]+$/.test(f));

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createKnex({ url: database.url, poolMax: 2 });
    await runMigrations(db, 'storage', migrations);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
    rmSync(dbRoot, { recursive: true, force: true });
  });

  it('a file of exactly the limit is stored: its bytes, size, sha-256, title, type, scope, uploader and the attachment presented', async () => {
    const bytes = Buffer.alloc(LIMIT, 9);
    bytes.write('exactly the limit', 0);
    const { row, attachment } = await storeObject(ports(), { body: Readable.from([bytes]), fileName: 'report.pdf' }, target);
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(row).toMatchObject({ title: 'report.pdf', mimetype: 'application/pdf', size: LIMIT, checksum: sha, scope: 'private', backend: 'local', uploaded_by: 'us1' });
    expect(row.id).toMatch(/^at[0-9a-f]{20}$/);
    expect(row.key).toMatch(/^uploads\/.+\.pdf$/);
    expect(readFileSync(blobs.fileOf(row.key)).equals(bytes)).toBe(true);
    expect(types.get(row.key)).toBe('application/pdf');
    const stored = await ObjectModel.query(db).findById(row.id);
    expect(stored).toMatchObject({ key: row.key, title: 'report.pdf', mimetype: 'application/pdf', size: LIMIT, checksum: sha, scope: 'private', backend: 'local', uploaded_by: 'us1' });
    expect(await ObjectBaseModel.query(db).where({ object_id: row.id })).toEqual([]);
    expect(attachment).toMatchObject({ path: `download/${row.key}`, title: 'report.pdf', mimetype: 'application/pdf', size: LIMIT });
    expect(signer.verify((attachment.signedPath as string).replace(/^dltemp\//, ''))).toEqual(expect.objectContaining({ key: row.key }));
  });

  it('a file in several chunks is hashed whole; a service\'s upload has no uploader; a base-scoped token\'s belongs to its base', async () => {
    const chunks = [Buffer.from('first part, '), Buffer.from('second part, '), Buffer.from('third')];
    const service = { kind: 'service', id: 'data', roles: [] } as unknown as Principal;
    const a = await storeObject(ports(), { body: Readable.from(chunks), fileName: 'notes.txt', mimetype: 'text/plain' }, { prefix: 'p', scope: 'public', principal: service });
    expect(a.row).toMatchObject({ size: 30, checksum: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'), uploaded_by: null, scope: 'public', mimetype: 'text/plain' });
    expect((await ObjectModel.query(db).findById(a.row.id))?.uploaded_by).toBeNull();
    const token = { kind: 'user', id: 'us2', baseScope: 'pbase1' } as unknown as Principal;
    const b = await storeObject(ports(), { body: Readable.from([Buffer.from('x')]), fileName: 'x.txt' }, { prefix: 'p', scope: 'private', principal: token });
    expect((await ObjectBaseModel.query(db).where({ object_id: b.row.id })).map((r) => r.base_id)).toEqual(['pbase1']);
  });

  it('a body that fails mid-stream stores nothing (no file, no row) and the error reaches the caller', async () => {
    const before = files().length;
    const rows = await ObjectModel.query(db).resultSize();
    let sent = 0;
    const body = new Readable({
      read() {
        sent += 1;
        if (sent > 3) this.destroy(new Error('client went away'));
        else this.push(Buffer.alloc(CHUNK, 1));
      },
    });
    await expect(storeObject(ports(), { body, fileName: 'cut.bin' }, target)).rejects.toThrow('client went away');
    expect(files()).toHaveLength(before);
    expect(await ObjectModel.query(db).resultSize()).toBe(rows);
  });

  it('a refused metadata row removes the stored blob; discardObjects removes blob and row', async () => {
    await db.raw(`create function storage.refuse_object() returns trigger language plpgsql as $$ begin raise exception 'metadata refused (test fault)'; end $$`);
    await db.raw('create trigger refuse_object before insert on storage.objects for each row execute function storage.refuse_object()');
    const before = files().length;
    try {
      await expect(storeObject(ports(), { body: Readable.from([Buffer.from('orphan')]), fileName: 'orphan.txt' }, target)).rejects.toThrow('metadata refused');
    } finally {
      await db.raw('drop trigger refuse_object on storage.objects');
    }
    expect(files()).toHaveLength(before);

    const kept = await storeObject(ports(), { body: Readable.from([Buffer.from('kept')]), fileName: 'kept.txt' }, target);
    const gone = await storeObject(ports(), { body: Readable.from([Buffer.from('gone')]), fileName: 'gone.txt' }, target);
    const other = await storeObject(ports(), { body: Readable.from([Buffer.from('gone too')]), fileName: 'gone2.txt' }, target);
    await discardObjects(ports(), [gone.row, other.row]);
    expect(existsSync(blobs.fileOf(gone.row.key))).toBe(false);
    expect(existsSync(blobs.fileOf(other.row.key))).toBe(false);
    expect(await ObjectModel.query(db).whereIn('id', [gone.row.id, other.row.id])).toEqual([]);
    expect(existsSync(blobs.fileOf(kept.row.key))).toBe(true);
    expect(await ObjectModel.query(db).findById(kept.row.id)).toBeDefined();
  });
});
