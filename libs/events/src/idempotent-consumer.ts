import type { Knex } from 'knex';

/** Creates `<schema>.processed_events`, the record of handled event ids per consumer. */
export async function processedEventsMigration(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('processed_events', (t) => {
    t.string('consumer', 200).notNullable();
    t.string('event_id', 100).notNullable();
    t.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['consumer', 'event_id']);
  });
}

/**
 * Runs `work` once per (consumer, event id): the processed row is inserted in
 * the same transaction as the work, so a redelivered event is skipped and a
 * failed one is retried. Returns false when the event had been handled already.
 */
export async function handleOnce(
  db: Knex, schema: string, consumer: string, eventId: string, work: (trx: Knex.Transaction) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const inserted = await trx.withSchema(schema).table('processed_events')
      .insert({ consumer, event_id: eventId }).onConflict(['consumer', 'event_id']).ignore().returning('event_id');
    if (inserted.length === 0) return false;
    await work(trx);
    return true;
  });
}
