import type Router from '@koa/router';
import { columnCreate, columnDelete, columnGet, columnSetPrimary, columnsBulk, columnsHash, columnUpdate } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { addColumn } from '../domain/columns/add-column';
import { getColumn, getColumnsHash } from '../domain/columns/column-reads';
import { updateColumn } from '../domain/columns/update-column';
import { deleteColumn } from '../domain/columns/delete-column';
import { setPrimaryColumn } from '../domain/columns/set-primary-column';
import { bulkColumns } from '../domain/columns/bulk-columns';

/** Columns (spec "Columns"). */
export function columnsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, columnCreate, async (ctx) => addColumn(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, columnsHash, async (ctx) => getColumnsHash(ports, principalOf(ctx), ctx.input.params.tableId));
  route(router, columnsBulk, async (ctx) => bulkColumns(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, columnGet, async (ctx) => getColumn(ports, principalOf(ctx), ctx.input.params.columnId));
  route(router, columnUpdate, async (ctx) => updateColumn(ports, principalOf(ctx), ctx.input.params.columnId, ctx.input.body));
  route(router, columnDelete, async (ctx) => deleteColumn(ports, principalOf(ctx), ctx.input.params.columnId));
  route(router, columnSetPrimary, async (ctx) => setPrimaryColumn(ports, principalOf(ctx), ctx.input.params.columnId));
  return router;
}
