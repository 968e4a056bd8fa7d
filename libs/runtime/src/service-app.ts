import type Koa from 'koa';
import type Router from '@koa/router';
import { createServiceApp, type ErrorMapper, type ReadinessCheck } from '@tabula/http';
import { identityMiddleware } from '@tabula/auth';
import { mapDbError } from '@tabula/db';
import type { CommonPorts } from './service-definition';
import { sharedReadiness } from './shared-ports';

export interface StandardAppOptions {
  routers: Router[];
  readiness?: Record<string, ReadinessCheck>;
  errorMappers?: ErrorMapper[];
  bodyLimit?: number;
}

/**
 * The app of a domain service: the house stack plus identity verification
 * (the gateway-signed principal), database error mapping and the shared
 * readiness checks (database, bus).
 */
export function standardServiceApp(ports: CommonPorts, options: StandardAppOptions): Koa {
  return createServiceApp({
    name: ports.service,
    logger: ports.logger,
    metrics: ports.metrics,
    readiness: { ...sharedReadiness(ports), ...(options.readiness ?? {}) },
    middleware: [identityMiddleware(ports.internalSecret)],
    routers: options.routers,
    errorMappers: [...(options.errorMappers ?? []), mapDbError],
    bodyLimit: options.bodyLimit,
    accessLog: ports.platform.SVC_ACCESS_LOG,
  });
}
