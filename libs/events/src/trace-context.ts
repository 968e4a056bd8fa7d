import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { runInChildSpan } from '@tabula/telemetry';
import type { EventHeaders, EventMessage } from './event-bus';

const tracer = trace.getTracer('@tabula/events');

/**
 * Adds `traceparent`/`tracestate` of the active context (W3C, through the global
 * propagator the telemetry lib registers). Headers that already carry a
 * traceparent keep it: an outbox row captured its request's context at enqueue
 * time, and the relay that publishes it later must not replace it with its own.
 */
export function injectTraceContext(headers: EventHeaders): EventHeaders {
  if (headers.traceparent) return headers;
  propagation.inject(context.active(), headers);
  return headers;
}

/**
 * Runs `work` with the message's trace context active, inside a CONSUMER span,
 * so the handler's logs, queries and outgoing calls join the publisher's trace
 * (runInChildSpan: without an exporter the span is only its ids).
 */
export function runInMessageContext(message: EventMessage, work: () => Promise<void>): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, message.headers);
  const attributes = {
    'messaging.destination.name': message.topic,
    'messaging.message.id': message.id,
    'messaging.operation.type': 'process',
    'tabula.event.type': message.type,
  };
  return runInChildSpan(tracer, `process ${message.topic}`, { kind: SpanKind.CONSUMER, attributes }, parent, work);
}
