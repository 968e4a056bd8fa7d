import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { HooksPorts } from '../app';
import { createHook, deleteHook, listHooks, updateHook } from '../domain/hook-crud';
import { hookBodySchema, hookPatchSchema } from '../domain/hook-input';
import { listHookLogs } from '../domain/hook-logs';
import { listQuery, ref } from './route-schemas';

const tableParams = z.object({ tableId: ref });
const hookParams = z.object({ hookId: ref });
const list = { params: tableParams, query: listQuery };
const create = { params: tableParams, body: hookBodySchema };
const patch = { params: hookParams, body: hookPatchSchema };
const one = { params: hookParams };
const logs = { params: hookParams, query: listQuery };

/** Hooks of a table, and one hook (api-spec "Hooks"). */
export function hooksRouter(ports: HooksPorts): Router {
  const router = new Router({ prefix: '/api/v1/db/meta' });
  router.get('/tables/:tableId/hooks', requireUser(), validate(list), async (ctx) => {
    const { params, query } = inputOf(ctx, list);
    ctx.body = await listHooks(ports, principalOf(ctx), params.tableId, query);
  });
  router.post('/tables/:tableId/hooks', requireUser(), validate(create), async (ctx) => {
    const { params, body } = inputOf(ctx, create);
    ctx.body = await createHook(ports, principalOf(ctx), params.tableId, body);
  });
  router.patch('/hooks/:hookId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateHook(ports, principalOf(ctx), params.hookId, body);
  });
  router.delete('/hooks/:hookId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteHook(ports, principalOf(ctx), inputOf(ctx, one).params.hookId);
  });
  router.get('/hooks/:hookId/logs', requireUser(), validate(logs), async (ctx) => {
    const { params, query } = inputOf(ctx, logs);
    ctx.body = await listHookLogs(ports, principalOf(ctx), params.hookId, query);
  });
  return router;
}
