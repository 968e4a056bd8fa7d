import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

/** What every log line and outgoing call of a request carries. */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The context of the request being served, if any. */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Takes `x-request-id` from the caller (the gateway) when well formed, else makes
 * one; echoes it on the response and keeps it in AsyncLocalStorage.
 */
export function requestContext(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = VALID_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    await storage.run({ requestId }, next);
  };
}
