import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { EventHeaders, EventMessage } from '../event-bus';
import { fromEnvelope } from '../envelope';
import type { Envelope } from '../envelope';

/** Kafka record of an envelope: key = ordering key (partitioning), headers = metadata + trace context. */
export function toKafkaMessage(envelope: Envelope): Message {
  const { payload } = envelope;
  return {
    key: envelope.key,
    value: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
    headers: envelope.headers,
  };
}

/** Reads a consumed record back; `offset` is `partition:offset` (logs only). */
export function fromKafkaMessage(topic: string, partition: number, message: KafkaMessage): EventMessage {
  const envelope: Envelope = {
    topic,
    key: message.key?.toString() ?? '',
    payload: new Uint8Array(message.value ?? Buffer.alloc(0)),
    headers: headerStrings(message.headers),
  };
  return fromEnvelope(envelope, `${partition}:${message.offset}`);
}

function headerStrings(headers: IHeaders | undefined): EventHeaders {
  const result: EventHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    // A repeated header keeps its last value, as with HTTP-style carriers.
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) result[name] = last.toString();
  }
  return result;
}
