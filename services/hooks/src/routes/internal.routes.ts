import Router from '@koa/router';
import { hooksInternal } from '@tabula/contracts';
import { route } from '@tabula/http';
import { requireService } from '@tabula/auth';
import type { HooksPorts } from '../ports';
import { dispatchSync } from '../domain/dispatch-sync';

/** Internal API: synchronous delivery of `async: false` hooks (called by data before it answers). */
export function internalRouter(ports: HooksPorts): Router {
  const router = new Router();
  route(router, hooksInternal.dispatchSync, requireService(), async (ctx) => dispatchSync(ports, ctx.input.body));
  return router;
}
