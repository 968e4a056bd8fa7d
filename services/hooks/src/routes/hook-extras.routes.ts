import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { HooksPorts } from '../app';
import { createHookFilter, hookFilterBodySchema, listHookFilters } from '../domain/hook-filters';
import { samplePayload, sampleParamsSchema } from '../domain/sample-payload';
import { testHook, testHookBodySchema } from '../domain/test-hook';
import { triggerHook } from '../domain/trigger-hook';
import { ref } from './route-schemas';

const hookParams = z.object({ hookId: ref });
const filters = { params: hookParams };
const createFilter = { params: hookParams, body: hookFilterBodySchema };
const test = { params: z.object({ tableId: ref }), body: testHookBodySchema };
const sample = { params: sampleParamsSchema, query: z.object({ includeUser: z.enum(['true', 'false']).optional() }).passthrough() };
const trigger = { params: z.object({ hookId: ref, rowId: ref }) };

/** Hook filters, test calls, sample payloads and the manual trigger. */
export function hookExtrasRouter(ports: HooksPorts): Router {
  const router = new Router();
  router.get('/api/v1/db/meta/hooks/:hookId/filters', requireUser(), validate(filters), async (ctx) => {
    ctx.body = await listHookFilters(ports, principalOf(ctx), inputOf(ctx, filters).params.hookId);
  });
  router.post('/api/v1/db/meta/hooks/:hookId/filters', requireUser(), validate(createFilter), async (ctx) => {
    const { params, body } = inputOf(ctx, createFilter);
    ctx.body = await createHookFilter(ports, principalOf(ctx), params.hookId, body);
  });
  router.post('/api/v1/db/meta/tables/:tableId/hooks/test', requireUser(), validate(test), async (ctx) => {
    const { params, body } = inputOf(ctx, test);
    ctx.body = await testHook(ports, principalOf(ctx), params.tableId, body);
  });
  router.get('/api/v1/db/meta/tables/:tableId/hooks/samplePayload/:event/:operation/:version', requireUser(), validate(sample), async (ctx) => {
    const { params, query } = inputOf(ctx, sample);
    ctx.body = await samplePayload(ports, principalOf(ctx), params, query.includeUser === 'true');
  });
  router.post('/api/v2/meta/hooks/:hookId/trigger/:rowId', requireUser(), validate(trigger), async (ctx) => {
    const { params } = inputOf(ctx, trigger);
    ctx.body = await triggerHook(ports, principalOf(ctx), params.hookId, params.rowId);
  });
  return router;
}
