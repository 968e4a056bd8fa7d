import type Router from '@koa/router';
import { gridCreate, viewDelete, viewList, viewUpdate } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { createGridView, deleteView, listViews, updateView } from '../domain/views/view-crud';

/** Views: list, grid create, rename, delete. */
export function viewsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, viewList, async (ctx) => listViews(ports, principalOf(ctx), ctx.input.params.tableId));
  route(router, gridCreate, async (ctx) => createGridView(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, viewUpdate, async (ctx) => updateView(ports, principalOf(ctx), ctx.input.params.viewId, ctx.input.body));
  route(router, viewDelete, async (ctx) => deleteView(ports, principalOf(ctx), ctx.input.params.viewId));
  return router;
}
