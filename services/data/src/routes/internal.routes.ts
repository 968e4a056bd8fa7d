import Router from '@koa/router';
import { dataInternalEndpoints } from '@tabula/contracts';
import { requireService } from '@tabula/auth';
import { route } from '@tabula/http';
import { parseRowId, recordNotFound, rowIdOf } from '../model/row-id';
import { selectByKeys } from '../repositories/records.repository';
import type { DataPorts } from '../app';

/**
 * The data service's internal API (libs/contracts/src/data, services only):
 * whether a record exists, answered with its canonical id. The table comes
 * from the same cached resolver the records API uses, so it must belong to the base.
 */
export function internalRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, dataInternalEndpoints.readRecord, requireService(), async (ctx) => {
    const { baseId, tableId, rowId } = ctx.input.params;
    const handle = await ports.tables.resolve(baseId, tableId);
    const key = parseRowId(handle.model, rowId);
    const [row] = key ? await selectByKeys(handle.source.knex, handle, [key], handle.model.primaryKeys) : [];
    if (!row) throw recordNotFound(rowId);
    return { base_id: handle.baseId, table_id: handle.tableId, row_id: rowIdOf(handle.model, row) };
  });
  return router;
}
