import type { Principal } from '@tabula/auth';
import { isSuper } from '@tabula/auth';
import { appError, errors } from '@tabula/http';
import { isSafeKey } from '../adapters/blob-store';
import { objectsByKeys, type ObjectRow } from '../repositories/object.repository';
import type { StoragePorts } from '../ports';

const notFound = () => appError('ERR_FILE_NOT_FOUND', 'File not found');

/**
 * The object of a raw (still percent-encoded) key from a URL path. Keys are
 * made of `[A-Za-z0-9._-]` segments, so anything else (`%2e%2e`, `%2f`,
 * backslashes, NUL, `..`, absolute paths) is refused before decoding or
 * touching storage; only keys this storage recorded are served.
 */
export async function objectOfRawKey(ports: StoragePorts, rawKey: string): Promise<ObjectRow> {
  if (!isSafeKey(rawKey)) throw appError('ERR_INVALID_PATH', 'Invalid file path');
  const row = (await objectsByKeys(ports.db, [rawKey])).get(rawKey);
  if (!row) throw notFound();
  return row;
}

/**
 * The read rule of one object (not an endpoint permission: `/download` is
 * public, the object decides). Private objects need a caller who may read
 * them: a reader of the base the object was attached in, or (not yet
 * attached) its uploader. Anyone else (another tenant, a removed member) gets
 * exactly the answer of a missing file, so a known path tells nothing about
 * what still exists. Services never get here: the contract admits users only.
 */
export async function authorizeRead(ports: StoragePorts, principal: Principal | undefined, row: ObjectRow): Promise<void> {
  if (row.scope === 'public') return;
  if (!principal) throw errors.unauthorized();
  if (isSuper(principal)) return;
  if (row.base_id) {
    await ports.baseAccess.authorizeVisible(principal, row.base_id, 'data.read', notFound);
    return;
  }
  if (row.uploaded_by !== principal.id) throw notFound();
}
