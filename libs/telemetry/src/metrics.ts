import { Registry, Histogram, collectDefaultMetrics } from 'prom-client';
import type { Middleware } from 'koa';

const processRegistry = new Registry();
let defaultsCollected = false;

/** Metrics of one service: its own registry merged with the process defaults. */
export interface ServiceMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Prometheus text of this service plus the process metrics. */
  render(): Promise<string>;
  contentType: string;
}

/** Creates the metrics of one service (several may share a process in standalone mode). */
export function createServiceMetrics(service: string): ServiceMetrics {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register: processRegistry });
    defaultsCollected = true;
  }
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const httpDuration = new Histogram({
    name: 'http_server_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    contentType: registry.contentType,
    render: async () => (await Registry.merge([processRegistry, registry]).metrics()),
  };
}

/** Observes the duration of each request, labelled by the matched route pattern. */
export function httpMetricsMiddleware(metrics: ServiceMetrics): Middleware {
  return async (ctx, next) => {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      end({ method: ctx.method, route: String(route), status: String(ctx.status) });
    }
  };
}
