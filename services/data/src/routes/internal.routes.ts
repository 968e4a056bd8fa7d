import Router from '@koa/router';
import { dataInternal, dataInternalEndpoints } from '@tabula/contracts';
import { route } from '@tabula/http';
import { parseRowId, recordNotFound, rowIdOf } from '../model/row-id';
import { selectByKeys } from '../repositories/records.repository';
import { readRecordById } from '../domain/read-record-by-id';
import type { DataPorts } from '../ports';

/**
 * The data service's internal API (libs/contracts/src/data, services only):
 * a record by table id (hooks' manual trigger), whether a record of a base's
 * table exists with its canonical id (comments), and "this table's hooks
 * changed" (hooks, before it answers: the sync-hook flag cache). Tables come from the
 * same cached resolver the records API uses.
 */
export function internalRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, dataInternal.readRecord, async (ctx) =>
    readRecordById(ports, ctx.input.params.tableId, ctx.input.params.recordId));
  route(router, dataInternal.syncHooksChanged, async (ctx) => {
    ports.syncHooks.invalidate(ctx.input.params.tableId);
    return { ok: true as const };
  });
  route(router, dataInternalEndpoints.readRecord, async (ctx) => {
    const { baseId, tableId, rowId } = ctx.input.params;
    const handle = await ports.tables.resolve(baseId, tableId);
    const key = parseRowId(handle.model, rowId);
    const [row] = key ? await selectByKeys(handle.source.knex, handle, [key], handle.model.primaryKeys) : [];
    if (!row) throw recordNotFound(rowId);
    return { base_id: handle.baseId, table_id: handle.tableId, row_id: rowIdOf(handle.model, row) };
  });
  return router;
}
