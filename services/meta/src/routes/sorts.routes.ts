import type Router from '@koa/router';
import { sortCreate, sortDelete, sortGet, sortList, sortUpdate } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createSort, deleteSort, getSort, listSorts, updateSort } from '../domain/views/sort-crud';

/** Sorts (spec "Sorts"). */
export function sortsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, sortList, async (ctx) => listSorts(ports, principalOf(ctx), ctx.input.params.viewId));
  route(router, sortCreate, async (ctx) => createSort(ports, principalOf(ctx), ctx.input.params.viewId, ctx.input.body));
  route(router, sortGet, async (ctx) => getSort(ports, principalOf(ctx), ctx.input.params.sortId));
  route(router, sortUpdate, async (ctx) => updateSort(ports, principalOf(ctx), ctx.input.params.sortId, ctx.input.body));
  route(router, sortDelete, async (ctx) => deleteSort(ports, principalOf(ctx), ctx.input.params.sortId));
  return router;
}
