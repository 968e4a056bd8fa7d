import Router from '@koa/router';
import { hooksCopy, hooksDeleteOfTables, hooksInternal } from '@tabula/contracts';
import { route } from '@tabula/http';
import type { HooksPorts } from '../ports';
import { dispatchSync } from '../domain/dispatch-sync';
import { copyHooks, deleteHooksOfTables } from '../domain/copy-hooks';

/**
 * Internal API: synchronous delivery of `async: false` hooks (called by data
 * before it answers); copying hooks onto duplicated tables and undoing such a
 * copy (called by meta).
 */
export function internalRouter(ports: HooksPorts): Router {
  const router = new Router();
  route(router, hooksInternal.dispatchSync, async (ctx) => dispatchSync(ports, ctx.input.body));
  route(router, hooksCopy, (ctx) => copyHooks(ports, ctx.input.body));
  route(router, hooksDeleteOfTables, (ctx) => deleteHooksOfTables(ports, ctx.input.body.tableIds));
  return router;
}
