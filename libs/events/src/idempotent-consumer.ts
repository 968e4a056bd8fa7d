import type { Knex } from 'knex';

/**
 * Creates `<schema>.processed_events`: which consumer handled which event id.
 * Idempotent, like {@link outboxMigration}.
 */
export async function processedEventsMigration(knex: Knex, schema: string): Promise<void> {
  if (await knex.schema.withSchema(schema).hasTable('processed_events')) return;
  await knex.schema.withSchema(schema).createTable('processed_events', (table) => {
    table.text('consumer').notNullable();
    table.text('event_id').notNullable();
    table.timestamp('processed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.primary(['consumer', 'event_id']);
  });
  await knex.raw('CREATE INDEX IF NOT EXISTS processed_events_processed_at_idx ON ??.processed_events (processed_at)', [schema]);
}

/**
 * Runs `work` at most once per (consumer, event id). The processed row is
 * inserted first, in the same transaction as the work: a redelivered event finds
 * it and is skipped (false); if the work throws, both roll back and the next
 * delivery tries again. A concurrent duplicate waits on the row's unique key
 * until the first commits (then skips) or rolls back (then does the work).
 */
export async function handleOnce(
  knex: Knex,
  schema: string,
  consumer: string,
  eventId: string,
  work: (trx: Knex.Transaction) => Promise<void>,
): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const inserted = await trx
      .withSchema(schema)
      .table('processed_events')
      .insert({ consumer, event_id: eventId })
      .onConflict(['consumer', 'event_id'])
      .ignore()
      .returning('event_id');
    if (inserted.length === 0) return false;
    await work(trx);
    return true;
  });
}

/** Forgets processed ids older than `olderThanMs` (far beyond any redelivery window); returns how many. */
export function pruneProcessedEvents(knex: Knex, schema: string, olderThanMs: number): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs);
  return knex.withSchema(schema).table('processed_events').where('processed_at', '<', cutoff).delete();
}
