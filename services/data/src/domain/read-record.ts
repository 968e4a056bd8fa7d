import type { Principal } from '@tabula/auth';
import { parseRowId, recordNotFound } from '../model/row-id';
import { viewColumns } from '../model/table-model';
import type { ApiRecord } from '../presenters/record.presenter';
import type { ViewInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { filtered, selectByKeys, tableOf, whereKeys } from '../repositories/records.repository';
import type { KeyWhere } from '../model/row-id';
import { readBack } from './record-reader';
import { readFilter } from './read-options';
import { openTable, type TableRef } from './table-access';
import type { DataPorts } from '../ports';
import { signAttachments } from '../attachments/attachment-signer';

/**
 * GET .../{rowId}: one record (404 ERR_RECORD_NOT_FOUND). Under a view the row
 * must pass the view's filters and only its visible columns are returned.
 */
export async function readRecord(ports: DataPorts, principal: Principal, ref: TableRef, rowId: string): Promise<ApiRecord> {
  const { handle, view } = await openTable(ports, principal, ref, 'data.read');
  const key = parseRowId(handle.model, rowId);
  if (!key) throw recordNotFound(rowId);
  if (view && !(await existsInView(handle, view, key))) throw recordNotFound(rowId);
  const columns = viewColumns(handle.model, view);
  const [record] = await readBack(handle.source.knex, handle, [key], columns);
  if (!record) throw recordNotFound(rowId);
  await signAttachments(ports, columns, [record]);
  return record;
}

/** GET .../{rowId}/exist: true when the row exists (and passes the view's filters). */
export async function recordExists(ports: DataPorts, principal: Principal, ref: TableRef, rowId: string): Promise<boolean> {
  const { handle, view } = await openTable(ports, principal, ref, 'data.read');
  const key = parseRowId(handle.model, rowId);
  if (!key) return false;
  if (view) return existsInView(handle, view, key);
  const rows = await selectByKeys(handle.source.knex, handle, [key], handle.model.primaryKeys);
  return rows.length > 0;
}

/** True when the keyed row passes the view's filters. */
async function existsInView(handle: TableHandle, view: ViewInfo, key: KeyWhere): Promise<boolean> {
  const qb = tableOf(handle.source.knex, handle).select(handle.model.primaryKeys.map((p) => p.column_name));
  return (await filtered(whereKeys(qb, handle, [key]), handle, readFilter(handle, view, {})).first()) !== undefined;
}
