import type Router from '@koa/router';
import {
  tableCreate, tableCreateInSource, tableDelete, tableDuplicate, tableGet, tableList, tableListOfSource, tableReorder, tableUpdate,
} from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createTable } from '../domain/tables/create-table';
import { listTables } from '../domain/tables/list-tables';
import { getTable } from '../domain/tables/get-table';
import { updateTable } from '../domain/tables/update-table';
import { deleteTable } from '../domain/tables/delete-table';
import { reorderTable } from '../domain/tables/reorder-table';
import { duplicateTable } from '../domain/tables/duplicate-table';

/** Tables (spec "Tables"); `/projects/:baseId/:sourceId/tables` is NocoDB's per-source form. */
export function tablesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, tableList, async (ctx) => {
    const { params, query } = ctx.input;
    return listTables(ports, principalOf(ctx), params.baseId, query);
  });
  route(router, tableListOfSource, async (ctx) => {
    const { params, query } = ctx.input;
    return listTables(ports, principalOf(ctx), params.baseId, { ...query, sourceId: params.sourceId });
  });
  route(router, tableCreate, async (ctx) => createTable(ports, principalOf(ctx), ctx.input.params.baseId, ctx.input.body));
  route(router, tableCreateInSource, async (ctx) => {
    const { params, body } = ctx.input;
    return createTable(ports, principalOf(ctx), params.baseId, { ...body, source_id: params.sourceId });
  });
  route(router, tableGet, async (ctx) => getTable(ports, principalOf(ctx), ctx.input.params.tableId));
  route(router, tableUpdate, async (ctx) => updateTable(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, tableDelete, async (ctx) => deleteTable(ports, principalOf(ctx), ctx.input.params.tableId));
  route(router, tableReorder, async (ctx) => reorderTable(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body.order));
  route(router, tableDuplicate, async (ctx) => {
    const { params, body } = ctx.input;
    return duplicateTable(ports, principalOf(ctx), params.baseId, params.tableId, body);
  });
  return router;
}
