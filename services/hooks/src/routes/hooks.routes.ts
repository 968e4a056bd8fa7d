import Router from '@koa/router';
import { hookCreate, hookDelete, hookList, hookLogList, hookUpdate } from '@tabula/contracts';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { HooksPorts } from '../ports';
import { createHook, deleteHook, listHooks, updateHook } from '../domain/hook-crud';
import { listHookLogs } from '../domain/hook-logs';

/** Hooks of a table, and one hook (api-spec "Hooks"). */
export function hooksRouter(ports: HooksPorts): Router {
  const router = new Router();
  route(router, hookList, async (ctx) => listHooks(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.query));
  route(router, hookCreate, async (ctx) => createHook(ports, principalOf(ctx), ctx.input.params.tableId, ctx.input.body));
  route(router, hookUpdate, async (ctx) => updateHook(ports, principalOf(ctx), ctx.input.params.hookId, ctx.input.body));
  route(router, hookDelete, async (ctx) => deleteHook(ports, principalOf(ctx), ctx.input.params.hookId));
  route(router, hookLogList, async (ctx) => listHookLogs(ports, principalOf(ctx), ctx.input.params.hookId, ctx.input.query));
  return router;
}
