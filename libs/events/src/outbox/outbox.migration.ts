import type { Knex } from 'knex';

/**
 * Creates `<schema>.outbox`, written inside the publisher's transactions and
 * drained by {@link OutboxRelay}. `seq` gives rows a total order (`created_at`
 * is the transaction's start time, equal for every row of one transaction).
 * Idempotent, so it can sit in any service's migration list.
 */
export async function outboxMigration(knex: Knex, schema: string): Promise<void> {
  if (await knex.schema.withSchema(schema).hasTable('outbox')) return;
  await knex.schema.withSchema(schema).createTable('outbox', (table) => {
    table.uuid('id').primary();
    table.bigIncrements('seq', { primaryKey: false });
    table.text('topic').notNullable();
    table.text('key').notNullable();
    table.text('type').notNullable();
    table.integer('version').notNullable().defaultTo(1);
    table.binary('payload').notNullable();
    table.jsonb('headers').notNullable().defaultTo('{}');
    table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    table.timestamp('published_at', { useTz: true }).nullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.text('last_error').nullable();
  });
  // The relay's claim query reads only this (small) index.
  await knex.raw('CREATE INDEX IF NOT EXISTS outbox_unpublished_idx ON ??.outbox (seq) WHERE published_at IS NULL', [schema]);
  // Retention deletes by age of publication.
  await knex.raw('CREATE INDEX IF NOT EXISTS outbox_published_idx ON ??.outbox (published_at) WHERE published_at IS NOT NULL', [schema]);
}
