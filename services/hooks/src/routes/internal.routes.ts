import Router from '@koa/router';
import { inputOf, validate } from '@tabula/http';
import { requireService } from '@tabula/auth';
import type { HooksPorts } from '../app';
import { dispatchSync, dispatchSyncSchema } from '../domain/dispatch-sync';

const dispatch = { body: dispatchSyncSchema };

/** Internal API: synchronous delivery of `async: false` hooks (called by data before it answers). */
export function internalRouter(ports: HooksPorts): Router {
  const router = new Router({ prefix: '/internal/hooks' });
  router.post('/dispatch-sync', requireService(), validate(dispatch), async (ctx) => {
    ctx.body = await dispatchSync(ports, inputOf(ctx, dispatch).body);
  });
  return router;
}
