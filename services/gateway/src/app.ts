import type Koa from 'koa';
import cors from '@koa/cors';
import { CidrList, createServiceApp } from '@tabula/http';
import { databaseCheck, sharedReadiness } from '@tabula/runtime';
import type { GatewayPorts } from './ports';
import { systemRoutes } from './routes/system.routes';
import { docsRoutes } from './routes/docs.routes';
import { dispatchMiddleware } from './dispatch.middleware';
import { clientAddressMiddleware, pathGuardMiddleware } from './edge.middleware';
import { webAppMiddleware } from './routes/web.routes';
import { WebAssets, webDir } from './adapters/web-assets';
import { matchRoute } from './route-table';

/**
 * CORS: an origin listed in `SVC_CORS_ORIGINS` may send credentialed requests
 * (cookies: the refresh token); any other origin gets `*` without credentials,
 * so a foreign page can call the API only with a token it already holds.
 */
/** Response headers any origin may read (CORS). */
export const CORS_EXPOSE_HEADERS = ['x-request-id', 'retry-after'];

function corsMiddleware(origins: string[]): Koa.Middleware {
  const listed = (origin: string) => origin !== '' && origins.includes(origin);
  return cors({
    origin: (ctx) => (listed(ctx.get('origin')) ? ctx.get('origin') : '*'),
    credentials: (ctx) => listed(ctx.get('origin')),
    allowHeaders: ['content-type', 'xc-auth', 'xc-token', 'authorization', 'x-request-id', 'traceparent', 'tracestate'],
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: 600,
  });
}

/** Builds the gateway app: client address, path guard, CORS, health/version, the web app's pages, then route-table dispatch. */
export function createApp(ports: GatewayPorts): Koa {
  const web = webAppMiddleware(new WebAssets(webDir(ports.config.SVC_WEB_DIR)), (method, path) => matchRoute(method, path) !== undefined);
  const dispatch = dispatchMiddleware({
    authenticator: ports.authenticator,
    dispatcher: ports.dispatcher,
    sign: ports.sign,
    config: ports.config,
  });
  const app = createServiceApp({
    name: 'gateway',
    logger: ports.logger,
    metrics: ports.metrics,
    readiness: sharedReadiness(ports),
    middleware: [clientAddressMiddleware(new CidrList(ports.config.SVC_TRUSTED_PROXIES)), pathGuardMiddleware(), corsMiddleware(ports.config.SVC_CORS_ORIGINS)],
    routers: [systemRoutes(ports.startedAt, databaseCheck(ports)), docsRoutes()],
    bodyLimit: false,
    accessLog: ports.platform.SVC_ACCESS_LOG,
    // The gateway's port is the public one: scrapers use METRICS_PORT unless this is switched on.
    serveMetrics: ports.platform.SVC_METRICS_PUBLIC,
    fallback: (ctx, next) => web(ctx, () => dispatch(ctx, next)),
  });
  // Forwarded headers are believed only from trusted proxies (clientAddressMiddleware), never by Koa itself.
  app.proxy = false;
  return app;
}
