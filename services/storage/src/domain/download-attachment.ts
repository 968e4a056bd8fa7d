import type { Principal } from '@tabula/auth';
import { appError, clientOf } from '@tabula/http';
import { dataAttachmentEndpoints, storageMetaEndpoints } from '@tabula/contracts';
import { isSafeKey } from '../adapters/blob-store';
import { objectsByKeys, type ObjectRow } from '../repositories/object.repository';
import { keyOfRef, storedValueOf } from '../presenters/attachment.presenter';
import type { StoragePorts } from '../ports';

/** Where downloadAttachment looks. */
export interface AttachmentCell {
  modelId: string;
  columnId: string;
  rowId: string;
  urlOrPath: string;
}

const notFound = () => appError('ERR_FILE_NOT_FOUND', 'Attachment not found in this record');

/**
 * GET /api/v2/downloadAttachment/...: the caller must read the table's base
 * (meta tells which), the object must belong to that base, and the row's cell
 * must still hold the attachment (data tells); only then are the bytes
 * served. A cell of an external source may hold any path (written outside the
 * API): another base's object answers like a missing one.
 */
export async function findRecordAttachment(ports: StoragePorts, principal: Principal, cell: AttachmentCell): Promise<ObjectRow> {
  const ref = /^https?:\/\//i.test(cell.urlOrPath) ? { url: cell.urlOrPath } : { path: cell.urlOrPath.replace(/^\/+/, '') };
  const key = keyOfRef(ports, ref) ?? (ref.path && !ref.path.startsWith('download/') ? ref.path : undefined);
  if (!key || !isSafeKey(key)) throw appError('ERR_INVALID_PATH', 'Invalid urlOrPath');
  const meta = clientOf(ports.services, storageMetaEndpoints);
  const table = await meta.tableContext({ params: { tableId: cell.modelId } });
  // Another tenant's table answers like a missing table (meta's 404), never 403.
  await ports.baseAccess.authorizeVisible(principal, table.base.id, 'data.read',
    () => appError('ERR_TABLE_NOT_FOUND', `Table '${cell.modelId}' not found`));
  const row = (await objectsByKeys(ports.db, [key])).get(key);
  if (!row || row.base_id !== table.base.id) throw notFound();
  const stored = storedValueOf(ports, key);
  const values = [stored.path ?? stored.url ?? '', `download/${key}`].filter((v, i, all) => v && all.indexOf(v) === i);
  const data = clientOf(ports.services, dataAttachmentEndpoints);
  const { referenced } = await data.dataAttachmentRefs({ body: { tableId: cell.modelId, columnId: cell.columnId, rowId: cell.rowId, values } });
  if (!referenced.length) throw notFound();
  return row;
}
