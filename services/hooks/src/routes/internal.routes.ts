import Router from '@koa/router';
import { inputOf, route, validate } from '@tabula/http';
import { requireService } from '@tabula/auth';
import { hooksCopy, hooksDeleteOfTables } from '@tabula/contracts';
import type { HooksPorts } from '../app';
import { dispatchSync, dispatchSyncSchema } from '../domain/dispatch-sync';
import { copyHooks, deleteHooksOfTables } from '../domain/copy-hooks';

const dispatch = { body: dispatchSyncSchema };

/**
 * Internal API: synchronous delivery of `async: false` hooks (called by data
 * before it answers); copying hooks onto duplicated tables and undoing such a
 * copy (called by meta).
 */
export function internalRouter(ports: HooksPorts): Router {
  const router = new Router();
  router.post('/internal/hooks/dispatch-sync', requireService(), validate(dispatch), async (ctx) => {
    ctx.body = await dispatchSync(ports, inputOf(ctx, dispatch).body);
  });
  route(router, hooksCopy, requireService(), (ctx) => copyHooks(ports, ctx.input.body));
  route(router, hooksDeleteOfTables, requireService(), (ctx) => deleteHooksOfTables(ports, ctx.input.body.tableIds));
  return router;
}
