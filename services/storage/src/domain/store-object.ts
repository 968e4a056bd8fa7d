import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Principal } from '@tabula/auth';
import { AppError, appError } from '@tabula/http';
import type { Attachment } from '@tabula/contracts';
import { deleteObject, insertObject, type ObjectRow } from '../repositories/object.repository';
import { joinBase } from '../repositories/object-bases.repository';
import { presentAttachment } from '../presenters/attachment.presenter';
import { diskNameOf, titleOf } from './file-names';
import { mimeOf } from './mime-of';
import type { StoragePorts } from '../ports';

/** The 413 of a file over the per-file limit. */
export function tooLarge(limit: number): AppError {
  return appError('ERR_PAYLOAD_TOO_LARGE', `File larger than ${limit} bytes (SVC_ATTACHMENT_FIELD_SIZE)`);
}

/** Counts and hashes bytes on their way through; fails the stream past `limit` bytes. */
class MeteredStream extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  constructor(private readonly limit: number) { super(); }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.size += chunk.length;
    if (this.size > this.limit) return done(tooLarge(this.limit));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** One file to store. */
export interface IncomingFile {
  body: Readable;
  fileName?: string;
  mimetype?: string;
}

/** Where and for whom. */
export interface StoreTarget {
  prefix: string;
  scope: 'public' | 'private';
  principal: Principal;
}

/**
 * Streams one file into the blob store (limit and checksum enforced on the
 * way), then records its metadata. A refused or failed stream stores nothing.
 */
export async function storeObject(ports: StoragePorts, file: IncomingFile, target: StoreTarget): Promise<{ row: ObjectRow; attachment: Attachment }> {
  const title = titleOf(file.fileName);
  const mimetype = mimeOf(file.mimetype, title);
  const key = `${target.prefix}/${diskNameOf(title)}`;
  const meter = new MeteredStream(ports.config.SVC_ATTACHMENT_FIELD_SIZE);
  file.body.once('error', (err) => meter.destroy(err));
  // a refused file is drained so the rest of the request can still be read (and answered)
  meter.once('error', () => file.body.resume());
  await ports.blobs.put(key, file.body.pipe(meter), { contentType: mimetype });
  const row: ObjectRow = {
    id: `at${randomBytes(10).toString('hex')}`, key, title, mimetype, size: meter.size, checksum: meter.digest(),
    scope: target.scope, backend: ports.blobs.kind, uploaded_by: target.principal.kind === 'user' ? target.principal.id : null,
    created_at: new Date(), unreferenced_since: new Date(),
  };
  // a base-scoped token's upload belongs to its base at once
  const baseId = target.principal.baseScope;
  try {
    await ports.db.transaction(async (trx) => {
      await insertObject(trx, {
        id: row.id, key, title, mimetype, size: row.size, checksum: row.checksum, scope: row.scope, backend: row.backend,
        uploaded_by: row.uploaded_by,
      });
      if (baseId) await joinBase(trx, [row.id], baseId);
    });
  } catch (err) {
    await ports.blobs.delete(key).catch(() => undefined);
    throw err;
  }
  return { row, attachment: presentAttachment(ports, row) };
}

/** Removes objects stored earlier in a request that failed as a whole. */
export async function discardObjects(ports: StoragePorts, rows: ObjectRow[]): Promise<void> {
  for (const row of rows) {
    await ports.blobs.delete(row.key).catch(() => undefined);
    await deleteObject(ports.db, row.id);
  }
}
