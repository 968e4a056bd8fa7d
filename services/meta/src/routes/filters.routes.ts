import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import {
  createFilter, deleteFilter, filterBodySchema, getFilter, listFilterChildren, listFilters, updateFilter,
} from '../domain/filter-crud';
import { META, ref, viewParams } from './route-schemas';

const filterParams = z.object({ filterId: ref });
const ofView = { params: viewParams };
const create = { params: viewParams, body: filterBodySchema };
const one = { params: filterParams };
const patch = { params: filterParams, body: filterBodySchema.partial() };
const children = { params: z.object({ parentId: ref }) };

/** View filters (compat-notes "Sorts and filters"). */
export function filtersRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  router.get('/views/:viewId/filters', requireUser(), validate(ofView), async (ctx) => {
    ctx.body = await listFilters(ports, principalOf(ctx), inputOf(ctx, ofView).params.viewId);
  });
  router.post('/views/:viewId/filters', requireUser(), validate(create), async (ctx) => {
    const { params, body } = inputOf(ctx, create);
    ctx.body = await createFilter(ports, principalOf(ctx), params.viewId, body);
  });
  router.get('/filters/:parentId/children', requireUser(), validate(children), async (ctx) => {
    ctx.body = await listFilterChildren(ports, principalOf(ctx), inputOf(ctx, children).params.parentId);
  });
  router.get('/filters/:filterId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await getFilter(ports, principalOf(ctx), inputOf(ctx, one).params.filterId);
  });
  router.patch('/filters/:filterId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateFilter(ports, principalOf(ctx), params.filterId, body);
  });
  router.delete('/filters/:filterId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteFilter(ports, principalOf(ctx), inputOf(ctx, one).params.filterId);
  });
  return router;
}
