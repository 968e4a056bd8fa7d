import Router from '@koa/router';
import { hookFilterCreate, hookFilterList, hookSamplePayload, hookTest, hookTrigger } from '@tabula/contracts';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { HooksPorts } from '../ports';
import { createHookFilter, listHookFilters } from '../domain/hook-filters';
import { samplePayload } from '../domain/sample-payload';
import { testHook } from '../domain/test-hook';
import { triggerHook } from '../domain/trigger-hook';

/** Hook filters, test calls, sample payloads and the manual trigger. */
export function hookExtrasRouter(ports: HooksPorts): Router {
  const router = new Router();
  route(router, hookFilterList, async (ctx) => listHookFilters(ports, principalOf(ctx), ctx.input.params.hookId));
  route(router, hookFilterCreate, async (ctx) => createHookFilter(ports, principalOf(ctx), ctx.input.params.hookId, ctx.input.body));
  route(router, hookTest, async (ctx) => testHook(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, hookSamplePayload, async (ctx) =>
    samplePayload(ports, principalOf(ctx), ctx.input.params, ctx.input.query.includeUser === 'true'));
  route(router, hookTrigger, async (ctx) => triggerHook(ports, principalOf(ctx), ctx.input.params.hookId, ctx.input.params.rowId));
  return router;
}
