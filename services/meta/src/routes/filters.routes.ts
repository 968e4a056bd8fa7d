import type Router from '@koa/router';
import { filterChildren, filterCreate, filterDelete, filterGet, filterList, filterUpdate } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createFilter, deleteFilter, getFilter, listFilterChildren, listFilters, updateFilter } from '../domain/views/filter-crud';

/** View filters (compat-notes "Sorts and filters"). */
export function filtersRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, filterList, async (ctx) => listFilters(ports, principalOf(ctx), ctx.input.params.viewId));
  route(router, filterCreate, async (ctx) => createFilter(ports, principalOf(ctx), ctx.input.params.viewId, ctx.input.body));
  route(router, filterChildren, async (ctx) => listFilterChildren(ports, principalOf(ctx), ctx.input.params.parentId));
  route(router, filterGet, async (ctx) => getFilter(ports, principalOf(ctx), ctx.input.params.filterId));
  route(router, filterUpdate, async (ctx) => updateFilter(ports, principalOf(ctx), ctx.input.params.filterId, ctx.input.body));
  route(router, filterDelete, async (ctx) => deleteFilter(ports, principalOf(ctx), ctx.input.params.filterId));
  return router;
}
