import Router, { type RouterContext } from '@koa/router';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { createBase, createBaseSchema } from '../domain/create-base';
import { listBases } from '../domain/list-bases';
import { getBase } from '../domain/get-base';
import { updateBase, updateBaseSchema } from '../domain/update-base';
import { deleteBase } from '../domain/delete-base';
import { baseInfo } from '../domain/base-info';
import { duplicateBase } from '../domain/duplicate-base';
import { duplicateSchema } from '../domain/duplicate-table';
import { listSources } from '../repositories/source.repository';
import { presentBase } from '../presenters/base.presenter';
import { META, baseParams, pageQuery } from './route-schemas';

const list = { query: pageQuery };
const create = { body: createBaseSchema };
const one = { params: baseParams };
const patch = { params: baseParams, body: updateBaseSchema };
const duplicate = { params: baseParams, body: duplicateSchema };

/** Bases (spec "Bases"). */
export function basesRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  const listHandler = async (ctx: RouterContext) => {
    ctx.body = await listBases(ports, principalOf(ctx), inputOf(ctx, list).query);
  };
  router.get('/projects', requireUser(), validate(list), listHandler);
  router.get('/projects/', requireUser(), validate(list), listHandler);
  const createHandler = async (ctx: RouterContext) => {
    const base = await createBase(ports, principalOf(ctx), inputOf(ctx, create).body);
    ctx.body = presentBase(base, await listSources(ports.db, base.id));
  };
  router.post('/projects', requireUser(), validate(create), createHandler);
  router.post('/projects/', requireUser(), validate(create), createHandler);
  router.get('/projects/:baseId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await getBase(ports, principalOf(ctx), inputOf(ctx, one).params.baseId);
  });
  router.patch('/projects/:baseId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateBase(ports, principalOf(ctx), params.baseId, body);
  });
  router.delete('/projects/:baseId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteBase(ports, principalOf(ctx), inputOf(ctx, one).params.baseId);
  });
  router.get('/projects/:baseId/info', requireUser(), validate(one), async (ctx) => {
    ctx.body = await baseInfo(ports, principalOf(ctx), inputOf(ctx, one).params.baseId);
  });
  router.post('/duplicate/:baseId', requireUser(), validate(duplicate), async (ctx) => {
    const { params, body } = inputOf(ctx, duplicate);
    ctx.body = await duplicateBase(ports, principalOf(ctx), params.baseId, body);
  });
  return router;
}
