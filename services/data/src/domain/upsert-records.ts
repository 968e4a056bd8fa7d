import type { ApiRecord } from '../presenters/record.presenter';
import { keyOfBody, type KeyWhere } from '../model/row-id';
import { selectByKeys, updateByKeys } from '../repositories/records.repository';
import { insertRows } from '../repositories/record-insert.repository';
import { assignOrder, orderSequenceOf, prepareRows, userIdOf } from './row-preparer';
import { checkUnique } from './unique-check';
import { keyOf, keyText, readBack } from './record-reader';
import { runWrite } from './write-runner';
import { openTable, type TableInScope } from './table-access';
import { checkBulkSize } from './bulk/bulk-limits';
import { atIndex } from '../values/value-errors';
import type { DataPorts } from '../ports';
import { claimAttachments } from '../attachments/attachment-claims';
import { withUserIds } from '../values/user-cells';

/**
 * POST bulk .../upsert: rows whose primary key exists are updated, the others
 * inserted (their key, if given, is ignored for auto-increment keys), in one
 * transaction; answers the records in request order. Announced as two
 * events (bulkInsert for the new rows, bulkUpdate for the others) so insert and
 * update hooks each see their rows.
 */
export async function upsertRecords(ports: DataPorts, scope: TableInScope, given: unknown): Promise<ApiRecord[]> {
  checkBulkSize(ports, given);
  const { principal } = scope;
  const { handle } = openTable(scope);
  const bodies = await withUserIds(ports, handle, given, true);
  const userId = userIdOf(principal);
  await claimAttachments(ports, handle, bodies, principal);
  const givenKeys = bodies.map((b) => (b && typeof b === 'object' ? keyOfBody(handle.model, b as Record<string, unknown>) : undefined));
  const sequence = await orderSequenceOf(handle);
  return runWrite(ports, handle, { op: 'bulkInsert', rows: bodies as ApiRecord[], principal }, async (trx) => {
    const existing = new Set((await selectByKeys(trx, handle, givenKeys.filter((k): k is KeyWhere => !!k), handle.model.primaryKeys, true)).map((r) => keyText(handle, r)));
    const isUpdate = givenKeys.map((k) => !!k && existing.has(keyText(handle, k)));
    const rows = bodies.map((b, i) => {
      try {
        return prepareRows(handle, [b], { mode: isUpdate[i] ? 'update' : 'insert', allowKeys: true, userId }, false)[0];
      } catch (err) {
        throw atIndex(err, i);
      }
    });
    await checkUnique(trx, handle, rows, givenKeys.map((k, i) => (isUpdate[i] ? k : undefined)), true);
    const inserts = rows.filter((_, i) => !isUpdate[i]);
    await assignOrder(trx, handle, inserts, undefined, sequence);
    const inserted = inserts.length ? (await insertRows(trx, handle, inserts, [])).map((r) => keyOf(handle, r)) : [];
    const previous = await readBack(trx, handle, givenKeys.filter((k, i): k is KeyWhere => isUpdate[i] && !!k));
    let next = 0;
    const keys = rows.map((row, i) => (isUpdate[i] ? givenKeys[i] as KeyWhere : inserted[next++]));
    for (const [i, row] of rows.entries()) if (isUpdate[i]) await updateByKeys(trx, handle, [keys[i]], row);
    const records = await readBack(trx, handle, keys);
    const change = [
      { op: 'bulkInsert' as const, rows: records.filter((_, i) => !isUpdate[i]), principal },
      { op: 'bulkUpdate' as const, rows: records.filter((_, i) => isUpdate[i]), previousRows: previous, principal },
    ];
    return { result: records, change };
  });
}
