import type Router from '@koa/router';
import { hookFilterCreate, hookFilterList, hookSamplePayload, hookTest, hookTrigger } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { HooksPorts } from '../ports';
import { createHookFilter, listHookFilters } from '../domain/hook-filters';
import { samplePayload } from '../domain/sample-payload';
import { testHook } from '../domain/test-hook';
import { triggerHook } from '../domain/trigger-hook';

/** Hook filters, test calls, sample payloads and the manual trigger. */
export function hookExtrasRouter(ports: HooksPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, hookFilterList, (ctx) => listHookFilters(ports, scopeOf(ctx)));
  route(router, hookFilterCreate, (ctx) => createHookFilter(ports, scopeOf(ctx), ctx.input.body));
  route(router, hookTest, (ctx) => testHook(ports, scopeOf(ctx), ctx.input.body));
  route(router, hookSamplePayload, (ctx) => samplePayload(scopeOf(ctx), ctx.input.params, ctx.input.query.includeUser === 'true'));
  route(router, hookTrigger, (ctx) => triggerHook(ports, scopeOf(ctx), ctx.input.params.rowId));
  return router;
}
