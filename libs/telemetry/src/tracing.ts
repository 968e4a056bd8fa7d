/* eslint-disable @typescript-eslint/no-require-imports -- heavy modules load only when used */
import type { IncomingMessage, RequestListener } from 'node:http';
import { context, createContextKey, propagation, ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags, type Context, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { attachServerSpan } from './route-template';
import { keepLogFieldsInTraceContext } from './logger';

let sdk: NodeSDK | undefined;
/** Without an exporter, server spans are made by {@link tracedListener} instead of the HTTP instrumentation. */
let manualServerSpans = false;

/** Incoming requests never traced: the probes and the metrics scrape. */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\/|\?|$)/;

/**
 * The instrumentations this process needs (Kafka's only with EVENT_BUS=kafka),
 * configured so that an idle process exports nothing: database, outgoing HTTP
 * and Kafka spans only inside a trace (a poller's or relay's `BEGIN`/`COMMIT`
 * is not a trace of its own), no span per anonymous Koa middleware (the
 * router layers keep theirs, named by their route), and the server span of a
 * request keeps a reference on the request so that the app names it
 * `METHOD /route/template` once the route that answered is known
 * (nameServerSpan).
 */
function instrumentations(env: NodeJS.ProcessEnv, exporting: boolean): Instrumentation[] {
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { KoaInstrumentation, KoaLayerType } = require('@opentelemetry/instrumentation-koa') as typeof import('@opentelemetry/instrumentation-koa');
  const { core } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  // Without an exporter no span leaves the process: what is kept is what makes trace ids and passes
  // them on — the server span (tracedListener, a few µs instead of the HTTP instrumentation's tens)
  // and `traceparent` on outgoing calls (undici: internal calls, webhooks). Spans of queries, router
  // layers and Kafka calls, which only describe work inside a request, are not made.
  if (!exporting) return [new UndiciInstrumentation({ requireParentforSpans: true })];
  const list: Instrumentation[] = [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.test(req.url ?? ''),
      requireParentforOutgoingSpans: true,
      requestHook: (span, request) => {
        // Server side only (an IncomingMessage); the hook runs inside the server span's context.
        if ('socket' in request && !('setHeader' in request)) attachServerSpan(request as IncomingMessage, span, core.getRPCMetadata(context.active()));
      },
    }),
    new UndiciInstrumentation({ requireParentforSpans: true }),
    new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true }),
    new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
  ];
  if (env.EVENT_BUS === 'kafka') {
    const { KafkaJsInstrumentation } = require('@opentelemetry/instrumentation-kafkajs') as typeof import('@opentelemetry/instrumentation-kafkajs');
    list.push(new KafkaJsInstrumentation());
  }
  return list;
}

/**
 * Starts OpenTelemetry for this process through the SDK's NodeSDK. Call it
 * from the process entry before koa, pg or kafkajs are loaded (each service's
 * `instrument.ts`). Spans are exported only when an OTLP endpoint is set
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); the
 * exporter, its protocol (OTEL_EXPORTER_OTLP_PROTOCOL, http/protobuf by
 * default), the batching (OTEL_BSP_*) and the sampler (OTEL_TRACES_SAMPLER)
 * are then the SDK's standard environment settings. Without an endpoint trace
 * ids still exist (log correlation, W3C propagation) and nothing is sent.
 * Metrics stay with prom-client (/metrics) and logs with the JSON logger:
 * the SDK's metric and log exporters are not started.
 * OTEL_SDK_DISABLED=true switches it off entirely.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): void {
  if (sdk || env.OTEL_SDK_DISABLED === 'true') return;
  const { NodeSDK: SDK, tracing, resources } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { ATTR_SERVICE_VERSION } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const exporting = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  sdk = new SDK({
    serviceName: env.OTEL_SERVICE_NAME ?? `tabula-${serviceName}`,
    resource: resources.resourceFromAttributes({ [ATTR_SERVICE_VERSION]: env.npm_package_version ?? '0.1.0' }),
    instrumentations: instrumentations(env, exporting),
    // Undefined: the SDK builds the exporter from the OTEL_* environment. A no-op processor keeps spans (and ids) without sending them.
    spanProcessors: exporting ? undefined : [new tracing.NoopSpanProcessor()],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  manualServerSpans = !exporting;
  // One AsyncLocalStorage per process: the log fields ride in the trace context once its manager keeps values.
  const probe = createContextKey('tabula.contextProbe');
  keepLogFieldsInTraceContext(context.with(ROOT_CONTEXT.setValue(probe, true), () => context.active().getValue(probe) === true));
}

/**
 * The request listener of an HTTP server, each request run in its server
 * span's context when tracing runs without an exporter (with one, the HTTP
 * instrumentation makes them): the parent is the caller's `traceparent`
 * (same trace, a new span id; a new trace without one). Nothing is exported,
 * so the span is only its ids — a non-recording span (`trace.wrapSpanContext`):
 * what log lines (trace_id, span_id) and outgoing calls (`traceparent`) read,
 * without the SDK span's clock readings, attributes, name and end (about a
 * tenth of a cached read's CPU). Probes and the metrics scrape are not
 * traced. The listener itself otherwise.
 */
export function tracedListener(handler: RequestListener): RequestListener {
  if (!manualServerSpans) return handler;
  return (req, res) => {
    if (UNTRACED_PATHS.test(req.url ?? '')) return handler(req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    context.with(trace.setSpan(parent, idsOnlySpan(parent)), () => handler(req, res));
  };
}

let spanIds: { generateTraceId(): string; generateSpanId(): string } | undefined;

/**
 * A non-recording span that is only ids, a child of `parent`'s span: its trace
 * id and flags (a new trace, sampled, without one) and a new span id.
 */
function idsOnlySpan(parent: Context): ReturnType<typeof trace.wrapSpanContext> {
  if (!spanIds) {
    const { tracing } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
    spanIds = new tracing.RandomIdGenerator();
  }
  const caller = trace.getSpanContext(parent);
  return trace.wrapSpanContext({
    traceId: caller?.traceId ?? spanIds.generateTraceId(),
    spanId: spanIds.generateSpanId(),
    traceFlags: caller ? caller.traceFlags : TraceFlags.SAMPLED,
    traceState: caller?.traceState,
  });
}

/**
 * Runs `work` in a span of its own, a child of `parent` (a new trace when
 * `parent` has none) and active while it runs; a thrown error is recorded
 * on the span. With an exporter (or without the SDK) the tracer's span, as
 * `tracer.startActiveSpan` makes it. Without an exporter nothing leaves the
 * process, so the span is only its ids, as the server spans
 * ({@link tracedListener}): a non-recording span with the parent's trace id
 * and flags (a new trace, sampled, without one) and a new span id — what
 * log lines and outgoing calls (`traceparent`) read — without an SDK span's
 * clock readings, attributes, name and end for each event a consumer handles.
 */
export function runInChildSpan<T>(tracer: Tracer, name: string, options: SpanOptions, parent: Context, work: () => Promise<T>): Promise<T> {
  if (manualServerSpans) {
    const span = idsOnlySpan(parent);
    try {
      return context.with(trace.setSpan(parent, span), work);
    } catch (error) {
      // A work that throws before its first await rejects, as inside startActiveSpan's async callback.
      return Promise.reject(error);
    }
  }
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Flushes and stops tracing (on SIGTERM). */
export async function stopTelemetry(): Promise<void> {
  if (!sdk) return;
  const current = sdk;
  sdk = undefined;
  manualServerSpans = false;
  keepLogFieldsInTraceContext(false);
  await current.shutdown().catch(() => undefined);
}
