import type Router from '@koa/router';
import { indexCreate, indexDelete, indexList } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createIndex, deleteIndex, listIndexes } from '../domain/tables/table-indexes';

/** Table indexes (README "Indexes"). */
export function indexesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, indexList, async (ctx) => listIndexes(ports, principalOf(ctx), ctx.input.params.tableId));
  route(router, indexCreate, async (ctx) => createIndex(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, indexDelete, async (ctx) => deleteIndex(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.params.indexId));
  return router;
}
