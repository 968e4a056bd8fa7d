import { appError } from '@tabula/http';
import type { ApiRecord } from '../presenters/record.presenter';
import { keyOfBody, parseRowId, recordNotFound, type KeyWhere } from '../model/row-id';
import { atIndex } from '../values/value-errors';
import { updateByKeys } from '../repositories/records.repository';
import { prepareRows, userIdOf } from './row-preparer';
import { checkUnique } from './unique-check';
import { readBack, throwMissing } from './record-reader';
import { runWrite } from './write-runner';
import { openTable, type TableInScope } from './table-access';
import { checkBulkSize } from './bulk/bulk-limits';
import type { DataPorts } from '../ports';
import { applyLinkFields, linkFieldsOf } from './links/link-fields';
import { claimAttachments } from '../attachments/attachment-claims';
import { withUserIds } from '../values/user-cells';

/** PATCH .../{rowId}: updates one record, answers it re-read (404 when missing). */
export async function updateRecord(ports: DataPorts, scope: TableInScope, rowId: string, body: unknown): Promise<ApiRecord> {
  const [record] = await updateMany(ports, scope, [body], { bulk: false, rowId });
  return record;
}

/** PATCH bulk: every body carries its key; all rows or none are updated (404 naming the index of a missing one). */
export function bulkUpdateRecords(ports: DataPorts, scope: TableInScope, bodies: unknown): Promise<ApiRecord[]> {
  checkBulkSize(ports, bodies);
  return updateMany(ports, scope, bodies, { bulk: true });
}

/**
 * PATCH by primary key in the body (NocoDB v2: one object or an array of
 * them): all rows or none are updated (404 for a missing one, named by its
 * index when the body is an array). Answers the records re-read.
 */
export function updateRecordsByKey(ports: DataPorts, scope: TableInScope, body: unknown): Promise<ApiRecord[]> {
  if (Array.isArray(body)) return bulkUpdateRecords(ports, scope, body);
  return updateMany(ports, scope, [body], { bulk: false, keyed: true });
}

async function updateMany(ports: DataPorts, scope: TableInScope, bodies: unknown[], opt: { bulk: boolean; rowId?: string; keyed?: boolean }): Promise<ApiRecord[]> {
  const { principal } = scope;
  const { handle } = openTable(scope);
  const keys: KeyWhere[] = bodies.map((body, i) => {
    const key = opt.rowId !== undefined ? parseRowId(handle.model, opt.rowId) : keyOfBody(handle.model, (body ?? {}) as Record<string, unknown>);
    if (key) return key;
    if (opt.rowId !== undefined) throw recordNotFound(opt.rowId);
    throw atIndex(appError('ERR_INVALID_REQUEST_BODY', 'The primary key is missing or invalid'), i);
  });
  const rows = prepareRows(handle, await withUserIds(ports, handle, bodies, opt.bulk), { mode: 'update', allowKeys: opt.bulk || opt.keyed, userId: userIdOf(principal) }, opt.bulk);
  await claimAttachments(ports, handle, bodies, principal);
  if (!rows.length) return [];
  const op = opt.bulk ? 'bulkUpdate' : 'update';
  const links = bodies.map((b) => linkFieldsOf(handle, b));
  return runWrite(ports, handle, { op, rows: bodies as ApiRecord[], principal }, async (trx) => {
    const previous = await readBack(trx, handle, keys);
    if (previous.length !== keys.length) await throwMissing(trx, handle, keys, opt.rowId);
    await checkUnique(trx, handle, rows, keys, opt.bulk);
    for (const [i, row] of rows.entries()) {
      await updateByKeys(trx, handle, [keys[i]], row);
      if (links[i].length) await applyLinkFields(ports, trx, Object.values(keys[i])[0], links[i], true);
    }
    const records = await readBack(trx, handle, keys);
    return { result: records, change: { op, rows: records, previousRows: previous, principal } };
  });
}
