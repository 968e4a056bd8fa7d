import { isSuper, roleAllows, type Principal } from '@tabula/auth';
import { appError, errors } from '@tabula/http';
import { isSafeKey } from '../adapters/blob-store';
import { objectsByKeys, type StoredObject } from '../repositories/object-bases.repository';
import type { StoragePorts } from '../ports';

const notFound = () => appError('ERR_FILE_NOT_FOUND', 'File not found');

/**
 * The object of a raw (still percent-encoded) key from a URL path. Keys are
 * made of `[A-Za-z0-9._-]` segments, so anything else (`%2e%2e`, `%2f`,
 * backslashes, NUL, `..`, absolute paths) is refused before decoding or
 * touching storage; only keys this storage recorded are served.
 */
export async function objectOfRawKey(ports: StoragePorts, rawKey: string): Promise<StoredObject> {
  if (!isSafeKey(rawKey)) throw appError('ERR_INVALID_PATH', 'Invalid file path');
  const row = (await objectsByKeys(ports.db, [rawKey])).get(rawKey);
  if (!row) throw notFound();
  return row;
}

/**
 * The read rule of one object (not an endpoint permission: `/download` is
 * public, the object decides). Private objects need a caller who may read
 * them: a reader of one of the bases the object belongs to, or (in no base
 * yet) its uploader. Anyone else (another tenant, a removed member) gets
 * exactly the answer of a missing file, so a known path tells nothing about
 * what still exists.
 */
export async function authorizeRead(ports: StoragePorts, principal: Principal | undefined, row: StoredObject): Promise<void> {
  if (row.scope === 'public') return;
  if (!principal) throw errors.unauthorized();
  if (isSuper(principal)) return;
  if (!row.bases.length) {
    if (row.uploaded_by !== principal.id) throw notFound();
    return;
  }
  for (const baseId of row.bases) {
    if (roleAllows(await ports.baseAccess.roleOf(principal, baseId), 'data.read')) return;
  }
  throw notFound();
}
