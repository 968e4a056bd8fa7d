import Koa, { type Middleware } from 'koa';
import type Router from '@koa/router';
import { createServiceMetrics, currentLogFields, isInProcess, nameServerSpan, reportRoute, routeOf, statusOf, withLogFields, writeAccessLine, type Logger, type ServiceMetrics } from '@tabula/telemetry';
import { requestIdFrom } from './request-context';
import { runGuarded, type ErrorMapper } from './error-middleware';
import { jsonBody } from './json-body';
import { nulGuard } from './nul-guard';
import { appError, errorBody } from './app-error';

/**
 * The routers' 405 (known path, other method) and 501 (unknown method) as the
 * JSON error body every client parses; `Allow` stays as the router set it.
 */
function methodNotAllowedAsJson(): Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx.status === 405 || ctx.status === 501) && !ctx.body) {
      ctx.status = 405;
      ctx.body = errorBody(appError('ERR_METHOD_NOT_ALLOWED', `Method ${ctx.method} is not allowed on this path`));
    }
  };
}

/** A readiness probe: resolves when the dependency answers, throws otherwise. */
export type ReadinessCheck = () => Promise<unknown>;

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Dependencies `/readyz` checks (database, bus, ...). */
  readiness?: Record<string, ReadinessCheck>;
  /** Runs before the routers (e.g. identity verification). */
  middleware?: Middleware[];
  routers: Router[];
  errorMappers?: ErrorMapper[];
  /** Largest JSON body in bytes (default 10 MiB); `false` leaves bodies unread (gateway). */
  bodyLimit?: number | false;
  /** Runs when no router answered (the gateway's dispatch). */
  fallback?: Middleware;
  /** One `info` access line per request (SVC_ACCESS_LOG). Default true. */
  accessLog?: boolean;
  /** Serve `/metrics` on this app's port. Default true; the gateway serves it only with SVC_METRICS_PUBLIC. */
  serveMetrics?: boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

/** `/healthz` (alive), `/readyz` (dependencies answer) and `/metrics`. */
function probes(options: ServiceAppOptions, metrics: ServiceMetrics): Middleware {
  const serveProbe: Middleware = async (ctx, next) => {
    if (ctx.path === '/healthz' || ctx.path === '/readyz' || (ctx.path === '/metrics' && options.serveMetrics !== false)) ctx.state.routeTemplate = ctx.path;
    if (ctx.path === '/healthz') {
      ctx.body = { status: 'ok', service: options.name };
    } else if (ctx.path === '/readyz') {
      const checks: Record<string, string> = {};
      let ok = true;
      await Promise.all(Object.entries(options.readiness ?? {}).map(async ([name, check]) => {
        try { await withTimeout(check(), 2000); checks[name] = 'ok'; } catch (err) { ok = false; checks[name] = (err as Error).message || 'failed'; }
      }));
      ctx.status = ok ? 200 : 503;
      ctx.body = { status: ok ? 'ok' : 'unavailable', service: options.name, checks };
    } else if (ctx.path === '/metrics' && options.serveMetrics !== false) {
      ctx.type = metrics.contentType;
      ctx.body = await metrics.render();
    } else {
      await next();
    }
  };
  // Any other path goes on without an async frame of its own (one promise fewer per request).
  return (ctx, next) => (PROBE_PATHS.has(ctx.path) ? serveProbe(ctx, next) : next());
}

const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The outer layers every request passes, as ONE middleware (each Koa layer is
 * an async frame and promises more per request): the request id (the caller's
 * when well formed) echoed and kept in the log fields — a request the gateway
 * handed over in this process already runs with that id's fields, so no new
 * scope is opened — then the request-duration metric labelled by the route
 * template (which the service also reports to the gateway), the access line
 * (never the URL's query, headers or bodies; the gateway writes the one line
 * of a handed-over request), the errors as JSON (runGuarded, as
 * errorMiddleware) and the probes.
 */
function houseMiddleware(options: ServiceAppOptions, metrics: ServiceMetrics): Middleware {
  const accessLog = options.accessLog !== false;
  const mappers = options.errorMappers ?? [];
  const probe = probes(options, metrics);
  const serve = async (ctx: Koa.Context, next: Koa.Next): Promise<void> => {
    const started = process.hrtime.bigint();
    // Read before next(): the gateway marks the same request when it hands it over.
    const handedOver = isInProcess(ctx.req);
    metrics.httpInFlight.inc();
    try {
      await runGuarded(ctx, () => probe(ctx, next), options.logger, mappers);
      reportRoute(ctx, handedOver);
    } finally {
      metrics.httpInFlight.dec();
      const route = routeOf(ctx) ?? 'unmatched';
      const status = statusOf(ctx);
      if (route !== 'unmatched') nameServerSpan(ctx.req, ctx.method, route);
      metrics.httpDuration.observeRoute(ctx.method, route, String(status), Number(process.hrtime.bigint() - started) / 1e9);
      if (accessLog && !handedOver) writeAccessLine(options.logger, { method: ctx.method, path: ctx.path, route, status, started });
    }
  };
  return (ctx, next) => {
    const requestId = requestIdFrom(ctx.get('x-request-id'));
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    if (currentLogFields()?.request_id === requestId) return serve(ctx, next);
    return withLogFields({ request_id: requestId }, () => serve(ctx, next));
  };
}

/**
 * Builds the Koa app of one service with the house middleware stack:
 * request id and log fields, metrics, access log, errors and probes (one
 * layer: houseMiddleware) → JSON body → routes.
 * Never listens and reads no environment.
 */
export function createServiceApp(options: ServiceAppOptions): Koa {
  const app = new Koa();
  app.proxy = true;
  const metrics = options.metrics ?? createServiceMetrics(options.name);
  // Every layer in front of the routers, in order: a direct path (directRoutes) runs the same ones.
  const front: Middleware[] = [houseMiddleware(options, metrics)];
  if (options.bodyLimit !== false) front.push(jsonBody({ limit: options.bodyLimit ?? 10 * 1024 * 1024 }), nulGuard());
  front.push(...(options.middleware ?? []), methodNotAllowedAsJson());
  for (const mw of front) app.use(mw);
  for (const router of options.routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  if (options.fallback) app.use(options.fallback);
  app.on('error', (err) => options.logger.debug({ err }, 'koa error event'));
  (app as AppWithParts)[APP_PARTS] = { front, routers: options.routers, fallback: options.fallback !== undefined };
  return app;
}

const APP_PARTS = Symbol('tabula.serviceAppParts');

/** What createServiceApp put in an app: the layers in front of the routers, the routers in order, whether a fallback follows them. */
export interface ServiceAppParts {
  front: readonly Middleware[];
  routers: readonly Router[];
  fallback: boolean;
}

type AppWithParts = Koa & { [APP_PARTS]?: ServiceAppParts };

/** The parts of an app built by createServiceApp (undefined for any other Koa app). */
export function serviceAppParts(app: Koa): ServiceAppParts | undefined {
  return (app as AppWithParts)[APP_PARTS];
}
