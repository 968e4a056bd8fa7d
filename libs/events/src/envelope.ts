import { randomUUID } from 'node:crypto';
import type { EventHeaders, EventMessage, PublishInput } from './event-bus';
import { injectTraceContext } from './trace-context';

/**
 * Event metadata travels as CloudEvents binary-mode headers (`ce_*`, as in the
 * CloudEvents Kafka binding) so generic Kafka/Redis tooling can read it.
 */
export const metadataHeaders = {
  specVersion: 'ce_specversion',
  id: 'ce_id',
  type: 'ce_type',
  source: 'ce_source',
  time: 'ce_time',
  schemaVersion: 'ce_schemaversion',
} as const;

/**
 * Header carrying when the message was handed to the broker (epoch ms, set on
 * every publish, so a republished outbox row carries its last publish): with
 * `timestamp` (when it happened) it splits a consumer's lag into relay and bus.
 */
export const PUBLISHED_AT_HEADER = 'tabula-published-at';

/** A message as the brokers store it: payload plus string headers. */
export interface Envelope {
  topic: string;
  key: string;
  payload: Uint8Array;
  headers: EventHeaders;
}

/**
 * A copy of a message's headers to add to. Not `{ ...headers }`: V8 gives an
 * object spread from a parsed JSON object (an outbox row's headers) a shape
 * that each property added afterwards migrates, 2.6 µs for the seven
 * metadata headers against 0.46 µs for this copy. A `__proto__` key is not
 * copied (assigning it would set the copy's prototype).
 */
export function copyHeaders(headers: EventHeaders | undefined): EventHeaders {
  const copy: EventHeaders = {};
  if (!headers) return copy;
  for (const name of Object.keys(headers)) {
    if (name !== '__proto__') copy[name] = headers[name];
  }
  return copy;
}

/** Builds the wire form of a message: metadata and trace context go into the headers. */
export function toEnvelope(input: PublishInput, source: string): Envelope {
  const headers = injectTraceContext(copyHeaders(input.headers));
  headers[metadataHeaders.specVersion] = '1.0';
  headers[metadataHeaders.id] = input.id ?? randomUUID();
  headers[metadataHeaders.type] = input.type;
  headers[metadataHeaders.source] = source;
  headers[metadataHeaders.time] = input.timestamp ?? new Date().toISOString();
  headers[metadataHeaders.schemaVersion] = String(input.version ?? 1);
  headers[PUBLISHED_AT_HEADER] = String(Date.now());
  return { topic: input.topic, key: input.key, payload: input.payload, headers };
}

/**
 * Reads a stored message back. A message from a foreign producer without
 * metadata is still delivered (not dropped), with an id derived from its broker
 * position so redeliveries dedupe.
 */
export function fromEnvelope(envelope: Envelope, offset?: string): EventMessage {
  const headers: EventHeaders = {};
  for (const [name, value] of Object.entries(envelope.headers)) {
    if (!name.startsWith('ce_')) headers[name] = value;
  }
  const meta = envelope.headers;
  return {
    id: meta[metadataHeaders.id] ?? `${envelope.topic}/${offset ?? randomUUID()}`,
    topic: envelope.topic,
    key: envelope.key,
    type: meta[metadataHeaders.type] ?? 'unknown',
    version: Number(meta[metadataHeaders.schemaVersion] ?? '1') || 1,
    payload: envelope.payload,
    headers,
    timestamp: meta[metadataHeaders.time] ?? new Date().toISOString(),
    offset,
  };
}
