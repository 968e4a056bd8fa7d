import type Router from '@koa/router';
import { indexCreate, indexDelete, indexList } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { createIndex, deleteIndex, listIndexes } from '../domain/tables/table-indexes';

/** Table indexes (README "Indexes"). */
export function indexesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, indexList, async (ctx) => listIndexes(ports, scopeOf(ctx)));
  route(router, indexCreate, async (ctx) => createIndex(ports, scopeOf(ctx), ctx.input.body));
  route(router, indexDelete, async (ctx) => deleteIndex(scopeOf(ctx), ctx.input.params.indexId));
  return router;
}
