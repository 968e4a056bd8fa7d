import type { Knex } from 'knex';

/** Creates `<schema>.outbox`, written in the publisher's transactions and drained by the relay. */
export async function outboxMigration(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('outbox', (t) => {
    t.bigIncrements('seq').primary();
    t.uuid('id').notNullable().unique();
    t.string('topic', 200).notNullable();
    t.string('key', 200).notNullable();
    t.string('type', 200).notNullable();
    t.integer('version').notNullable().defaultTo(1);
    t.binary('payload').notNullable();
    t.jsonb('headers').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('published_at', { useTz: true }).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
  });
  await db.raw(`CREATE INDEX outbox_unpublished_idx ON ??.outbox (seq) WHERE published_at IS NULL`, [schema]);
}
