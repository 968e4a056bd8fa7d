import type Router from '@koa/router';
import {
  formColumnUpdate, gridColumnList, gridColumnUpdate, gridCreate, viewColumnCreate, viewColumnList, viewColumnUpdate, viewDelete,
  viewHideAll, viewKindEndpoints, viewList, viewShowAll, viewUpdate,
} from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { deleteView, listViews, updateView } from '../domain/views/view-crud';
import {
  createColumnOfView, createKindView, gridColumnsOf, listColumnsOfView, readKindView, showOrHideAll, updateColumnOfView,
  updateKindView, updateViewColumnById,
} from '../domain/views/view-kinds';

/** Views: list, create (every kind), read and update a kind's settings, rename, delete; a view's columns. */
export function viewsRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, viewList, async (ctx) => listViews(ports, scopeOf(ctx)));
  route(router, gridCreate, async (ctx) => createKindView(ports, scopeOf(ctx), 'grid', ctx.input.body));
  route(router, viewUpdate, async (ctx) => updateView(ports, scopeOf(ctx), ctx.input.body));
  route(router, viewDelete, async (ctx) => deleteView(ports, scopeOf(ctx)));
  const { create, read, update } = viewKindEndpoints;
  route(router, create.form, async (ctx) => createKindView(ports, scopeOf(ctx), 'form', ctx.input.body));
  route(router, create.gallery, async (ctx) => createKindView(ports, scopeOf(ctx), 'gallery', ctx.input.body));
  route(router, create.kanban, async (ctx) => createKindView(ports, scopeOf(ctx), 'kanban', ctx.input.body));
  route(router, create.calendar, async (ctx) => createKindView(ports, scopeOf(ctx), 'calendar', ctx.input.body));
  route(router, create.map, async (ctx) => createKindView(ports, scopeOf(ctx), 'map', ctx.input.body));
  route(router, read.form, async (ctx) => readKindView(ports, scopeOf(ctx), 'form'));
  route(router, read.gallery, async (ctx) => readKindView(ports, scopeOf(ctx), 'gallery'));
  route(router, read.kanban, async (ctx) => readKindView(ports, scopeOf(ctx), 'kanban'));
  route(router, read.calendar, async (ctx) => readKindView(ports, scopeOf(ctx), 'calendar'));
  route(router, read.map, async (ctx) => readKindView(ports, scopeOf(ctx), 'map'));
  route(router, update.grid, async (ctx) => updateKindView(ports, scopeOf(ctx), 'grid', ctx.input.body));
  route(router, update.form, async (ctx) => updateKindView(ports, scopeOf(ctx), 'form', ctx.input.body));
  route(router, update.gallery, async (ctx) => updateKindView(ports, scopeOf(ctx), 'gallery', ctx.input.body));
  route(router, update.kanban, async (ctx) => updateKindView(ports, scopeOf(ctx), 'kanban', ctx.input.body));
  route(router, update.calendar, async (ctx) => updateKindView(ports, scopeOf(ctx), 'calendar', ctx.input.body));
  route(router, update.map, async (ctx) => updateKindView(ports, scopeOf(ctx), 'map', ctx.input.body));
  route(router, viewColumnList, async (ctx) => listColumnsOfView(ports, scopeOf(ctx)));
  route(router, viewColumnCreate, async (ctx) => createColumnOfView(ports, scopeOf(ctx), ctx.input.body));
  route(router, viewColumnUpdate, async (ctx) => updateColumnOfView(ports, scopeOf(ctx), ctx.input.params.columnId, ctx.input.body));
  route(router, viewShowAll, async (ctx) => showOrHideAll(ports, scopeOf(ctx), true, ctx.input.query.ignoreIds));
  route(router, viewHideAll, async (ctx) => showOrHideAll(ports, scopeOf(ctx), false, ctx.input.query.ignoreIds));
  route(router, gridColumnList, async (ctx) => gridColumnsOf(ports, scopeOf(ctx)));
  route(router, gridColumnUpdate, async (ctx) => updateViewColumnById(ports, scopeOf(ctx), ctx.input.body));
  route(router, formColumnUpdate, async (ctx) => updateViewColumnById(ports, scopeOf(ctx), ctx.input.body));
  return router;
}
