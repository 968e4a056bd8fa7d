import Router from '@koa/router';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { createGridView, deleteView, listViews, updateView, viewBodySchema } from '../domain/view-crud';
import { META, tableParams, viewParams } from './route-schemas';

const ofTable = { params: tableParams };
const grid = { params: tableParams, body: viewBodySchema };
const one = { params: viewParams };
const patch = { params: viewParams, body: viewBodySchema.partial() };

/** Views: list, grid create, rename, delete. */
export function viewsRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  router.get('/tables/:tableId/views', requireUser(), validate(ofTable), async (ctx) => {
    ctx.body = await listViews(ports, principalOf(ctx), inputOf(ctx, ofTable).params.tableId);
  });
  router.post('/tables/:tableId/grids', requireUser(), validate(grid), async (ctx) => {
    const { params, body } = inputOf(ctx, grid);
    ctx.body = await createGridView(ports, principalOf(ctx), params.tableId, body);
  });
  router.patch('/views/:viewId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateView(ports, principalOf(ctx), params.viewId, body);
  });
  router.delete('/views/:viewId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteView(ports, principalOf(ctx), inputOf(ctx, one).params.viewId);
  });
  return router;
}
