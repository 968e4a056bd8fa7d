import { appError, type AccessScope } from '@tabula/http';
import type { TableContext } from '@tabula/contracts';
import { isSafeKey } from '../adapters/blob-store';
import { objectsByKeys, type StoredObject } from '../repositories/object-bases.repository';
import { keyOfRef, storedValueOf } from '../presenters/attachment.presenter';
import type { StoragePorts } from '../ports';

/** Where downloadAttachment looks. */
export interface AttachmentCell {
  columnId: string;
  rowId: string;
  urlOrPath: string;
}

/** A table whose base the guard let the caller read (data.read). */
export type TableInScope = AccessScope<TableContext>;

const notFound = () => appError('ERR_FILE_NOT_FOUND', 'Attachment not found in this record');

/**
 * GET /api/v2/downloadAttachment/...: the guard has checked the caller reads
 * the table's base; the object must belong to that base, and the row's cell
 * must still hold the attachment (data tells); only then are the bytes
 * served. A cell of an external source may hold any path (written outside the
 * API): another base's object answers like a missing one.
 */
export async function findRecordAttachment(ports: StoragePorts, table: TableInScope, cell: AttachmentCell): Promise<StoredObject> {
  const ref = /^https?:\/\//i.test(cell.urlOrPath) ? { url: cell.urlOrPath } : { path: cell.urlOrPath.replace(/^\/+/, '') };
  const key = keyOfRef(ports, ref) ?? (ref.path && !ref.path.startsWith('download/') ? ref.path : undefined);
  if (!key || !isSafeKey(key)) throw appError('ERR_INVALID_PATH', 'Invalid urlOrPath');
  const row = (await objectsByKeys(ports.db, [key])).get(key);
  if (!row || !row.bases.includes(table.value.base.id)) throw notFound();
  const stored = storedValueOf(ports, key);
  const values = [stored.path ?? stored.url ?? '', `download/${key}`].filter((v, i, all) => v && all.indexOf(v) === i);
  const { referenced } = await ports.data.dataAttachmentRefs({ body: { tableId: table.value.table.id, columnId: cell.columnId, rowId: cell.rowId, values } });
  if (!referenced.length) throw notFound();
  return row;
}
