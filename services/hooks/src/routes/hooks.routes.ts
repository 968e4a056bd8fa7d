import type Router from '@koa/router';
import { hookCreate, hookDelete, hookList, hookLogList, hookUpdate } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { HooksPorts } from '../ports';
import { createHook, deleteHook, listHooks, updateHook } from '../domain/hook-crud';
import { listHookLogs } from '../domain/hook-logs';

/** Hooks of a table, and one hook (api-spec "Hooks"). */
export function hooksRouter(ports: HooksPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, hookList, (ctx) => listHooks(ports, scopeOf(ctx), ctx.input.query));
  route(router, hookCreate, (ctx) => createHook(ports, scopeOf(ctx), ctx.input.body));
  route(router, hookUpdate, (ctx) => updateHook(ports, scopeOf(ctx), ctx.input.body));
  route(router, hookDelete, (ctx) => deleteHook(ports, scopeOf(ctx)));
  route(router, hookLogList, (ctx) => listHookLogs(ports, scopeOf(ctx), ctx.input.query));
  return router;
}
