import { updateByKeys } from '../repositories/records.repository';
import type { DbRow } from '../model/record-writer';
import { assignOrder } from './row-preparer';
import { requireRow } from './links/link-scope';
import { runWrite } from './write-runner';
import { openTable, type TableInScope } from './table-access';
import type { DataPorts } from '../ports';

/**
 * POST /api/v2/tables/{tableId}/records/{recordId}/move[?before=…]: gives the
 * record a new place in the table's manual order (nc_order), as an insert with
 * `before` places a new row: between `before` and the row preceding it, or last.
 * Both records must exist (404, nothing written). A table without nc_order
 * (an external one) has no manual order: the records are checked and nothing
 * changes. No event: no field of the record changes.
 */
export async function moveRecord(ports: DataPorts, scope: TableInScope, rowId: string, before?: string): Promise<true> {
  const { handle } = openTable(scope);
  const column = handle.model.orderColumn?.column_name;
  return runWrite(ports, handle, undefined, async (trx) => {
    const key = await requireRow(trx, handle, rowId);
    if (before) await requireRow(trx, handle, before);
    if (column && before !== rowId) {
      const row: DbRow = {};
      await assignOrder(trx, handle, [row], before || undefined);
      await updateByKeys(trx, handle, [key], row);
    }
    return { result: true as const };
  });
}
