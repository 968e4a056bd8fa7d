import type Router from '@koa/router';
import {
  filterCreateInTableV3, filterCreateV3, filterDeleteInTableV3, filterDeleteV3, filterListInTableV3, filterListV3, filterUpdateInTableV3, filterUpdateV3,
  sortCreateInTableV3, sortCreateV3, sortDeleteInTableV3, sortDeleteV3, sortListInTableV3, sortListV3, sortUpdateInTableV3, sortUpdateV3,
  viewColumnListV3, viewColumnUpdateV3,
} from '@tabula/contracts';
import { appError, guardedRouter, nocoV3Missing, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import type { ViewInScope } from '../domain/scopes/meta-scopes';
import { tableNotFound } from '../domain/scopes/table-scope';
import {
  createFilterV3, createSortV3, deleteFilterV3, deleteSortV3, filterTreeV3, listSortsV3, listViewColumnsV3, updateFilterV3, updateSortV3,
  updateViewColumnsV3,
} from '../domain/views/v3-view-settings';

/**
 * NocoDB's v3 sorts, filters and view columns (contracts in meta-v3-views.ts)
 * over the v1 view use cases. The view must be in the path's base (and
 * table, on the `tables/{tableId}` spelling): else it answers as a missing
 * view or table, 422 as NocoDB's v3 does (nocoV3Missing).
 */
export function metaV3ViewsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const m = nocoV3Missing;
  const view = (ctx: { input: { params: { baseId?: string; tableId?: string; viewId: string } } }): ViewInScope => {
    const scope = scopeOf<ViewInScope['value']>(ctx as never) as ViewInScope;
    const { baseId, tableId, viewId } = ctx.input.params;
    if (baseId !== undefined && scope.value.view.base_id !== baseId) throw appError('ERR_VIEW_NOT_FOUND', `View '${viewId}' not found`);
    if (tableId !== undefined && scope.value.view.fk_model_id !== tableId) throw tableNotFound(tableId);
    return scope;
  };
  // Each path under the base, and its spelling in the view's table.
  for (const e of [sortListV3, sortListInTableV3] as const) route(router, e, m, (ctx) => listSortsV3(ports, view(ctx)));
  for (const e of [sortCreateV3, sortCreateInTableV3] as const) route(router, e, m, (ctx) => createSortV3(ports, view(ctx), ctx.input.body));
  for (const e of [sortUpdateV3, sortUpdateInTableV3] as const) route(router, e, m, (ctx) => updateSortV3(ports, view(ctx), ctx.input.body));
  for (const e of [sortDeleteV3, sortDeleteInTableV3] as const) route(router, e, m, (ctx) => deleteSortV3(ports, view(ctx), ctx.input.body));
  for (const e of [filterListV3, filterListInTableV3] as const) route(router, e, m, async (ctx) => ({ list: await filterTreeV3(ports, view(ctx)) }));
  for (const e of [filterCreateV3, filterCreateInTableV3] as const) route(router, e, m, (ctx) => createFilterV3(ports, view(ctx), ctx.request.body));
  for (const e of [filterUpdateV3, filterUpdateInTableV3] as const) route(router, e, m, (ctx) => updateFilterV3(ports, view(ctx), ctx.input.body as never));
  for (const e of [filterDeleteV3, filterDeleteInTableV3] as const) route(router, e, m, (ctx) => deleteFilterV3(ports, view(ctx), ctx.input.body.id));
  route(router, viewColumnListV3, m, (ctx) => listViewColumnsV3(ports, view(ctx)));
  route(router, viewColumnUpdateV3, m, (ctx) => updateViewColumnsV3(ports, view(ctx), ctx.request.body));
  return router;
}
