import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

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
 * trace when none was stored), recording a thrown error on the span.
 */
export function runInStoredContext<T>(stored: StoredTraceContext | null | undefined, name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  const parent = stored ? propagation.extract(ROOT_CONTEXT, stored) : ROOT_CONTEXT;
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent, async (span) => {
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
