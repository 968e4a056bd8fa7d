import type { Knex } from 'knex';
import type { PublishInput } from '../event-bus';
import { toMessage } from '../envelope';

/**
 * Writes an event into `<schema>.outbox` inside the caller's transaction: it is
 * published only if that transaction commits. Returns the event id.
 */
export async function enqueueEvent(trx: Knex | Knex.Transaction, schema: string, input: PublishInput): Promise<string> {
  const message = toMessage(input);
  await trx.withSchema(schema).table('outbox').insert({
    id: message.id, topic: message.topic, key: message.key, type: message.type, version: message.version,
    payload: Buffer.from(message.payload), headers: JSON.stringify({ ...message.headers, 'event-timestamp': message.timestamp }),
  });
  return message.id;
}
