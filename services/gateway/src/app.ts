import type Koa from 'koa';
import cors from '@koa/cors';
import { createServiceApp } from '@tabula/http';
import { identitySigner } from '@tabula/auth';
import { sharedReadiness } from '@tabula/runtime';
import type { GatewayPorts } from './ports';
import { systemRoutes } from './routes/system.routes';
import { docsRoutes } from './routes/docs.routes';
import { dispatchMiddleware } from './dispatch.middleware';

/** Builds the gateway app: CORS, health/version, then route-table dispatch. */
export function createApp(ports: GatewayPorts): Koa {
  const origins = ports.config.SVC_CORS_ORIGINS;
  const corsMiddleware = cors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      return origins.length === 0 || origins.includes(origin) ? origin || '*' : '';
    },
    credentials: true,
    allowHeaders: ['content-type', 'xc-auth', 'xc-token', 'authorization', 'x-request-id', 'traceparent', 'tracestate'],
    exposeHeaders: ['x-request-id', 'retry-after'],
    maxAge: 600,
  });
  return createServiceApp({
    name: 'gateway',
    logger: ports.logger,
    metrics: ports.metrics,
    readiness: sharedReadiness(ports),
    middleware: [corsMiddleware],
    routers: [systemRoutes(ports.startedAt), docsRoutes()],
    bodyLimit: false,
    fallback: dispatchMiddleware({
      authenticator: ports.authenticator,
      dispatcher: ports.dispatcher,
      sign: identitySigner(ports.internalSecret),
      config: ports.config,
    }),
  });
}
