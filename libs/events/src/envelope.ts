import { randomUUID } from 'node:crypto';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { EventHandler, EventHeaders, EventMessage, PublishInput } from './event-bus';

/** Header names carrying the event metadata on every transport. */
export const HEADER = { id: 'event-id', type: 'event-type', version: 'event-version', timestamp: 'event-timestamp', key: 'event-key' } as const;

/**
 * Completes a publish input into a message: id, version, timestamp, and the
 * active trace context injected into its headers.
 */
export function toMessage(input: PublishInput): EventMessage {
  const headers: EventHeaders = { ...(input.headers ?? {}) };
  if (!headers.traceparent) propagation.inject(context.active(), headers);
  return {
    id: input.id ?? randomUUID(),
    topic: input.topic,
    key: input.key,
    type: input.type,
    version: input.version ?? 1,
    payload: input.payload,
    headers,
    timestamp: new Date().toISOString(),
  };
}

/** Runs a handler inside the trace context the producer sent. */
export function runInTraceContext(handler: EventHandler, message: EventMessage): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, message.headers);
  return context.with(parent, () => handler(message));
}

/** Exponential backoff for redelivery: 100 ms doubling up to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
