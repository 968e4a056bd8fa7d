import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { isInProcess, routeOf, statusOf } from './route-template';

const PROBES = /^\/(healthz|readyz|metrics)$/;

/** Writes the access line of an answered request (`started`: process.hrtime.bigint() at its start). */
export function writeAccessLine(logger: Logger, request: { method: string; path: string; route: string; status: number; started: bigint }): void {
  const line = {
    method: request.method,
    route: request.route,
    status: request.status,
    duration_ms: Math.round(Number(process.hrtime.bigint() - request.started) / 10_000) / 100,
  };
  if (PROBES.test(request.path)) logger.debug(line, 'request');
  else logger.info(line, 'request');
}

/**
 * One `info` line per request once it is answered: method, route template,
 * status and duration; the request id and trace id come from the logger's
 * request fields. Never the URL's query, headers, tokens or bodies. Probes log at
 * `debug`. A request the gateway handed over in this process is logged by the
 * gateway only (one line per request).
 */
export function accessLogMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    // Read before next(): the gateway marks the same request when it hands it over.
    const handedOver = isInProcess(ctx.req);
    try {
      await next();
    } finally {
      if (!handedOver) writeAccessLine(logger, { method: ctx.method, path: ctx.path, route: routeOf(ctx) ?? 'unmatched', status: statusOf(ctx), started });
    }
  };
}
