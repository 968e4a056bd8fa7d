import { keyOfBody, parseRowId, recordNotFound, type KeyWhere } from '../model/row-id';
import { deleteByKeys } from '../repositories/records.repository';
import { readBack, throwMissing } from './record-reader';
import { atIndex } from '../values/value-errors';
import { runWrite } from './write-runner';
import { openTable, type TableInScope } from './table-access';
import { checkBulkSize } from './bulk/bulk-limits';
import type { DataPorts } from '../ports';

/**
 * DELETE .../{rowId}: 1 when deleted; 404 ERR_RECORD_NOT_FOUND when there is no
 * such row, as a read of it answers (issue 9 item 17; NocoDB answers 0).
 */
export async function deleteRecord(ports: DataPorts, scope: TableInScope, rowId: string): Promise<number> {
  const { principal } = scope;
  const { handle } = openTable(scope);
  const key = parseRowId(handle.model, rowId);
  if (!key) throw recordNotFound(rowId);
  return runWrite(ports, handle, { op: 'delete', rows: [], previousRows: [{ ...key }], principal }, async (trx) => {
    const previous = await readBack(trx, handle, [key]);
    if (!previous.length) throw recordNotFound(rowId);
    const n = await deleteByKeys(trx, handle, [key]);
    return { result: n, change: { op: 'delete', rows: previous, previousRows: previous, principal } };
  });
}

/** Options of {@link bulkDeleteRecords}. */
export interface BulkDeleteOptions {
  /** Every named record must exist: else 404 for the first missing one and nothing is deleted (NocoDB v2). */
  strict?: boolean;
}

/**
 * DELETE bulk: body `[{<pk>: value}, …]`; one transaction; answers one entry
 * per requested record: the deleted record's key, or null when it did not
 * exist (strict: then nothing is deleted, 404 naming its index).
 */
export async function bulkDeleteRecords(ports: DataPorts, scope: TableInScope, bodies: unknown, opt: BulkDeleteOptions = {}): Promise<(Record<string, unknown> | null)[]> {
  checkBulkSize(ports, bodies);
  const { principal } = scope;
  const { handle } = openTable(scope);
  const keys = bodies.map((b) => (b && typeof b === 'object' ? keyOfBody(handle.model, b as Record<string, unknown>) : undefined));
  const unkeyed = keys.findIndex((k) => !k);
  if (opt.strict && unkeyed >= 0) throw atIndex(recordNotFound(keyTextOf(bodies[unkeyed])), unkeyed);
  const valid = keys.filter((k): k is KeyWhere => !!k);
  if (!valid.length) return keys.map(() => null);
  return runWrite(ports, handle, { op: 'bulkDelete', rows: [], previousRows: valid, principal }, async (trx) => {
    const previous = await readBack(trx, handle, valid);
    if (opt.strict && previous.length !== valid.length) await throwMissing(trx, handle, valid);
    await deleteByKeys(trx, handle, valid);
    const pk = handle.model.primaryKeys;
    const gone = new Set(previous.map((r) => pk.map((p) => String(r[p.title])).join('\u0000')));
    const result = keys.map((k) => {
      if (!k || !gone.has(pk.map((p) => String(k[p.column_name])).join('\u0000'))) return null;
      return Object.fromEntries(pk.map((p) => [p.title, k[p.column_name]]));
    });
    return { result, change: { op: 'bulkDelete', rows: previous, previousRows: previous, principal } };
  });
}

/** A body that names no record, as a 404 message shows it. */
function keyTextOf(body: unknown): string {
  return typeof body === 'object' && body !== null ? JSON.stringify(body).slice(0, 200) : String(body);
}
