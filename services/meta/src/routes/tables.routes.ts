import type Router from '@koa/router';
import {
  tableCreate, tableCreateInSource, tableDelete, tableDuplicate, tableGet, tableList, tableListOfSource, tableReorder, tableUpdate,
} from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { createTable } from '../domain/tables/create-table';
import { listTables } from '../domain/tables/list-tables';
import { getTable } from '../domain/tables/get-table';
import { updateTable } from '../domain/tables/update-table';
import { deleteTable } from '../domain/tables/delete-table';
import { reorderTable } from '../domain/tables/reorder-table';
import { duplicateTable } from '../domain/tables/duplicate-table';
import { moreScopes } from '../domain/scopes/more-scopes';

/** Tables (spec "Tables"); `/projects/:baseId/:sourceId/tables` is NocoDB's per-source form. */
export function tablesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, tableList, async (ctx) => listTables(ports, scopeOf(ctx), ctx.input.query));
  route(router, tableListOfSource, async (ctx) => {
    const { params, query } = ctx.input;
    return listTables(ports, scopeOf(ctx), { ...query, sourceId: params.sourceId });
  });
  route(router, tableCreate, async (ctx) => createTable(ports, scopeOf(ctx), ctx.input.body));
  route(router, tableCreateInSource, async (ctx) => {
    const { params, body } = ctx.input;
    return createTable(ports, scopeOf(ctx), { ...body, source_id: params.sourceId });
  });
  route(router, tableGet, async (ctx) => getTable(ports, scopeOf(ctx)));
  route(router, tableUpdate, async (ctx) => updateTable(ports, scopeOf(ctx), ctx.input.body));
  route(router, tableDelete, async (ctx) => deleteTable(ports, scopeOf(ctx)));
  route(router, tableReorder, async (ctx) => reorderTable(ports, scopeOf(ctx), ctx.input.body.order));
  route(router, tableDuplicate, async (ctx) => {
    const { params, body } = ctx.input;
    return duplicateTable(ports, scopeOf(ctx), moreScopes(authorizer, tableDuplicate, ctx), params.tableId, body);
  });
  return router;
}
