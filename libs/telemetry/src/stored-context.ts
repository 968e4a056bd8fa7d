import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { runInChildSpan } from './tracing';

/** W3C trace headers (`traceparent`, `tracestate`) as stored beside deferred work. */
export type StoredTraceContext = Record<string, string>;

const tracer = trace.getTracer('@tabula/telemetry');

/**
 * The active trace context as headers, to store with work done later (a
 * scheduled webhook delivery), so that work joins the trace that caused it.
 * Undefined when no trace is active.
 */
export function captureTraceContext(): StoredTraceContext | undefined {
  const carrier: StoredTraceContext = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/**
 * Runs deferred work in a span whose parent is the stored context (a new
 * trace when none was stored), recording a thrown error on the span
 * (runInChildSpan: only its ids when no exporter runs).
 */
export function runInStoredContext<T>(stored: StoredTraceContext | null | undefined, name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  const parent = stored ? propagation.extract(ROOT_CONTEXT, stored) : ROOT_CONTEXT;
  return runInChildSpan(tracer, name, { kind: SpanKind.INTERNAL, attributes }, parent, work);
}
