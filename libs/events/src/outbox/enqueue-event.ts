import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { PublishInput } from '../event-bus';
import { injectTraceContext } from '../trace-context';

/**
 * Writes an event into `<schema>.outbox` inside the caller's transaction, so it
 * is published if and only if that transaction commits. The trace context of
 * the request is captured now (the relay publishes later, outside it). Returns
 * the event id, which is also the outbox row id and the bus message id.
 */
export async function enqueueEvent(trx: Knex, schema: string, input: PublishInput): Promise<string> {
  const id = input.id ?? randomUUID();
  const { payload } = input;
  await trx
    .withSchema(schema)
    .table('outbox')
    .insert({
      id,
      topic: input.topic,
      key: input.key,
      type: input.type,
      version: input.version ?? 1,
      payload: Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength),
      headers: JSON.stringify(injectTraceContext({ ...input.headers })),
      ...(input.timestamp ? { created_at: input.timestamp } : {}),
    });
  return id;
}
