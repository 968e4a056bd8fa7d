import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { createSort, createSortSchema, deleteSort, getSort, listSorts, updateSort, updateSortSchema } from '../domain/sort-crud';
import { META, ref, viewParams } from './route-schemas';

const sortParams = z.object({ sortId: ref });
const ofView = { params: viewParams };
const create = { params: viewParams, body: createSortSchema };
const one = { params: sortParams };
const patch = { params: sortParams, body: updateSortSchema };

/** Sorts (spec "Sorts"). */
export function sortsRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  router.get('/views/:viewId/sorts', requireUser(), validate(ofView), async (ctx) => {
    ctx.body = await listSorts(ports, principalOf(ctx), inputOf(ctx, ofView).params.viewId);
  });
  router.post('/views/:viewId/sorts', requireUser(), validate(create), async (ctx) => {
    const { params, body } = inputOf(ctx, create);
    ctx.body = await createSort(ports, principalOf(ctx), params.viewId, body);
  });
  router.get('/sorts/:sortId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await getSort(ports, principalOf(ctx), inputOf(ctx, one).params.sortId);
  });
  router.patch('/sorts/:sortId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateSort(ports, principalOf(ctx), params.sortId, body);
  });
  router.delete('/sorts/:sortId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteSort(ports, principalOf(ctx), inputOf(ctx, one).params.sortId);
  });
  return router;
}
