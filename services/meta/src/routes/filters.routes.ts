import type Router from '@koa/router';
import { filterChildren, filterCreate, filterDelete, filterGet, filterList, filterUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { createFilter, deleteFilter, getFilter, listFilterChildren, listFilters, updateFilter } from '../domain/views/filter-crud';

/** View filters (compat-notes "Sorts and filters"). */
export function filtersRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, filterList, async (ctx) => listFilters(ports, scopeOf(ctx)));
  route(router, filterCreate, async (ctx) => createFilter(ports, scopeOf(ctx), ctx.input.body));
  route(router, filterChildren, async (ctx) => listFilterChildren(ports, scopeOf(ctx)));
  route(router, filterGet, (ctx) => getFilter(scopeOf(ctx)));
  route(router, filterUpdate, async (ctx) => updateFilter(ports, scopeOf(ctx), ctx.input.body));
  route(router, filterDelete, async (ctx) => deleteFilter(ports, scopeOf(ctx)));
  return router;
}
