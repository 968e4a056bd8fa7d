import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';

/** The payload revision every event message in proto/tabula/events/v1 starts at. */
export const CURRENT_SCHEMA_VERSION = 1;

/**
 * Serializes an event payload for `EventBus.publish`. `schemaVersion` defaults to
 * {@link CURRENT_SCHEMA_VERSION} so producers cannot forget it (proto3 would
 * otherwise send 0, which no consumer could interpret).
 */
export function encodeEvent<Desc extends DescMessage>(schema: Desc, value: MessageInitShape<Desc>): Uint8Array {
  const message = create(schema, value) as MessageShape<Desc> & { schemaVersion?: number };
  if ('schemaVersion' in message && !message.schemaVersion) message.schemaVersion = CURRENT_SCHEMA_VERSION;
  return toBinary(schema, message);
}

/**
 * Parses a payload received from the bus. Unknown fields (from a newer producer)
 * are kept, so an older consumer reads what it knows and ignores the rest.
 */
export function decodeEvent<Desc extends DescMessage>(schema: Desc, bytes: Uint8Array): MessageShape<Desc> {
  return fromBinary(schema, bytes);
}
