import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Middleware } from 'koa';
import { ROUTE_TEMPLATE_HEADER, setRequestRoute } from './route-template';

const processRegistry = new Registry();
let defaultsCollected = false;

/** One label set's values in a prom-client histogram (what its `observe` updates). */
interface HistogramEntry {
  labels: Record<string, string>;
  bucketValues: Record<number, number>;
  sum: number;
  count: number;
}

/**
 * `http_server_duration_seconds`: a prom-client Histogram (registered,
 * exported and reset as any) with {@link observeRoute}, which records a
 * request with one map lookup. prom-client's `startTimer`/`observe` check
 * and hash the labels on every call (about 6 µs per request for the gateway's
 * and the service's observations together, docs/benchmarks.md, fifth pass);
 * here the first observation of a label set goes through `observe` and its
 * entry (prom-client's, internal: pinned by metrics.test.ts, which compares
 * the exposition with a plain Histogram fed the same values) is kept, and the
 * next ones add to it as `observe` would.
 */
export class RouteHistogram extends Histogram<'method' | 'route' | 'status'> {
  private readonly entries = new Map<string, HistogramEntry | null>();
  private readonly bounds: readonly number[];

  constructor(config: ConstructorParameters<typeof Histogram<'method' | 'route' | 'status'>>[0]) {
    super(config);
    this.bounds = [...(config.buckets ?? [])].sort((a, b) => a - b);
  }

  /** Records one request of `seconds`. */
  observeRoute(method: string, route: string, status: string, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    const entry = this.entries.get(key);
    if (entry && Number.isFinite(seconds)) {
      entry.sum += seconds;
      entry.count += 1;
      for (const bound of this.bounds) {
        if (seconds <= bound) {
          entry.bucketValues[bound] += 1;
          break;
        }
      }
      return;
    }
    this.observe({ method, route, status }, seconds);
    if (entry === undefined) this.entries.set(key, this.entryOf(method, route, status));
  }

  override reset(): void {
    // Also called by prom-client's constructor, before this class's fields exist.
    (this.entries as Map<string, HistogramEntry | null> | undefined)?.clear();
    super.reset();
  }

  /** The label set's entry in prom-client's values (null if it is not there: every observation then goes through `observe`). */
  private entryOf(method: string, route: string, status: string): HistogramEntry | null {
    const values = (this as unknown as { hashMap?: Record<string, HistogramEntry> }).hashMap ?? {};
    return Object.values(values).find(({ labels }) => labels?.method === method && labels.route === route && labels.status === status) ?? null;
  }
}

/** Metrics of one service: its own registry merged with the process defaults. */
export interface ServiceMetrics {
  registry: Registry;
  httpDuration: RouteHistogram;
  /** `tabula_http_requests_in_flight`: requests this service is answering now (the HPA's pods metric). */
  httpInFlight: Gauge;
  /** A counter of this service (created once per name; later calls return it). */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L>;
  /** A gauge of this service whose value is read at scrape time by `collect` (created once per name). */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect: (gauge: Gauge<L>) => Promise<void> | void): Gauge<L>;
  /** Prometheus text of this service plus the process metrics. */
  render(): Promise<string>;
  contentType: string;
}

/**
 * Prometheus text of several services' registries plus the process metrics once
 * (standalone METRICS_PORT). Each registry is read with its `service` label
 * (Registry.merge would drop default labels and refuse the shared metric names);
 * samples of one metric name are grouped under one HELP/TYPE.
 */
export async function renderMetrics(all: Array<Pick<ServiceMetrics, 'registry'>>): Promise<string> {
  const snapshots = await Promise.all([processRegistry, ...all.map((m) => m.registry)].map((registry) => registry.getMetricsAsJSON()));
  return AggregatorRegistry.aggregate(snapshots).metrics();
}

/** Creates the metrics of one service (several may share a process in standalone mode). */
export function createServiceMetrics(service: string): ServiceMetrics {
  if (!defaultsCollected) {
    collectDefaultMetrics({ register: processRegistry });
    defaultsCollected = true;
  }
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  const httpDuration = new RouteHistogram({
    name: 'http_server_duration_seconds',
    help: 'HTTP request duration by route template',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpInFlight = new Gauge({ name: 'tabula_http_requests_in_flight', help: 'HTTP requests being answered now', registers: [registry] });
  const existing = <T>(name: string) => registry.getSingleMetric(name) as T | undefined;
  const self = { registry };
  return {
    registry,
    httpDuration,
    httpInFlight,
    counter: (name, help, labelNames) => existing(name) ?? new Counter({ name, help, labelNames, registers: [registry] }),
    gauge: (name, help, labelNames, collect) => existing(name) ?? new Gauge({
      name, help, labelNames, registers: [registry],
      async collect() { await collect(this); },
    }),
    contentType: registry.contentType,
    render: () => renderMetrics([self]),
  };
}

/** Tells the gateway which route answered: on the request (handed over in process) or in a response header. */
export function reportRoute(ctx: Parameters<Middleware>[0], handedOver: boolean): void {
  const matched = (ctx as unknown as { _matchedRoute?: string })._matchedRoute;
  if (!matched) return;
  if (handedOver) setRequestRoute(ctx.req, String(matched));
  else if (ctx.respond !== false && !ctx.headerSent) ctx.set(ROUTE_TEMPLATE_HEADER, String(matched));
}
