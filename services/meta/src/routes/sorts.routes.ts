import type Router from '@koa/router';
import { sortCreate, sortDelete, sortGet, sortList, sortUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { createSort, deleteSort, getSort, listSorts, updateSort } from '../domain/views/sort-crud';

/** Sorts (spec "Sorts"). */
export function sortsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, sortList, async (ctx) => listSorts(ports, scopeOf(ctx)));
  route(router, sortCreate, async (ctx) => createSort(ports, scopeOf(ctx), ctx.input.body));
  route(router, sortGet, (ctx) => getSort(scopeOf(ctx)));
  route(router, sortUpdate, async (ctx) => updateSort(ports, scopeOf(ctx), ctx.input.body));
  route(router, sortDelete, async (ctx) => deleteSort(ports, scopeOf(ctx)));
  return router;
}
