import type Router from '@koa/router';
import { gridCreate, viewDelete, viewList, viewUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { createGridView, deleteView, listViews, updateView } from '../domain/views/view-crud';

/** Views: list, grid create, rename, delete. */
export function viewsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, viewList, async (ctx) => listViews(ports, scopeOf(ctx)));
  route(router, gridCreate, async (ctx) => createGridView(ports, scopeOf(ctx), ctx.input.body));
  route(router, viewUpdate, async (ctx) => updateView(ports, scopeOf(ctx), ctx.input.body));
  route(router, viewDelete, async (ctx) => deleteView(ports, scopeOf(ctx)));
  return router;
}
