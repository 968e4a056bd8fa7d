import type { EventHeaders, EventMessage } from '../event-bus';
import { fromEnvelope } from '../envelope';
import type { Envelope } from '../envelope';

/**
 * A stream entry has three fields: `key`, `headers` (JSON object of strings,
 * metadata and trace context included) and `payload` (raw bytes). One JSON field
 * rather than one field per header keeps entries self-describing and small.
 */
export function toStreamFields(envelope: Envelope): Record<string, string | Buffer> {
  return {
    key: envelope.key,
    headers: JSON.stringify(envelope.headers),
    payload: Buffer.from(envelope.payload.buffer, envelope.payload.byteOffset, envelope.payload.byteLength),
  };
}

/** A stream entry read with Buffer replies (so the payload bytes stay intact). */
export interface RawStreamEntry {
  id: Buffer | string;
  message: Record<string, Buffer | string | undefined>;
}

/** Turns an entry of `topic`'s stream back into a message. */
export function fromStreamEntry(topic: string, entry: RawStreamEntry): EventMessage {
  const { key, headers, payload } = entry.message;
  const parsed = headers ? (JSON.parse(headers.toString()) as EventHeaders) : {};
  const bytes = payload === undefined ? new Uint8Array() : typeof payload === 'string' ? Buffer.from(payload) : payload;
  return fromEnvelope({ topic, key: key?.toString() ?? '', headers: parsed, payload: new Uint8Array(bytes) }, entry.id.toString());
}
