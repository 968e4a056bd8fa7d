import type Router from '@koa/router';
import { columnCreate, columnDelete, columnGet, columnSetPrimary, columnsBulk, columnsHash, columnUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { addColumn } from '../domain/columns/add-column';
import { getColumn, getColumnsHash } from '../domain/columns/column-reads';
import { updateColumn } from '../domain/columns/update-column';
import { deleteColumn } from '../domain/columns/delete-column';
import { setPrimaryColumn } from '../domain/columns/set-primary-column';
import { bulkColumns } from '../domain/columns/bulk-columns';
import { moreScopes } from '../domain/scopes/more-scopes';

/** Columns (spec "Columns"). */
export function columnsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, columnCreate, async (ctx) => addColumn(ports, scopeOf(ctx), moreScopes(authorizer, columnCreate, ctx), ctx.input.body));
  route(router, columnsHash, async (ctx) => getColumnsHash(ports, scopeOf(ctx)));
  route(router, columnsBulk, async (ctx) => bulkColumns(ports, scopeOf(ctx), moreScopes(authorizer, columnsBulk, ctx), ctx.input.body));
  route(router, columnGet, (ctx) => getColumn(scopeOf(ctx)));
  route(router, columnUpdate, async (ctx) => updateColumn(ports, scopeOf(ctx), ctx.input.body));
  route(router, columnDelete, async (ctx) => deleteColumn(ports, scopeOf(ctx)));
  route(router, columnSetPrimary, async (ctx) => setPrimaryColumn(ports, scopeOf(ctx)));
  return router;
}
