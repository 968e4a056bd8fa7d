import type { Knex } from 'knex';
import type { Migration } from '@tabula/db';

/**
 * `feed`: the durable, retained log of the live feed. One row per bus event
 * (records and meta), `seq` its cursor; rows are appended one transaction at a
 * time under an advisory lock, so `seq` order is commit order and a reader of
 * `seq > n` never misses a row committed later with a smaller seq.
 * `feed_state.pruned_through`: the highest seq retention has deleted (an older
 * resume id gets `event: reset`). `tickets`: single-use stream tickets (hashes only).
 */
async function createFeedTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('feed', (t) => {
    t.bigIncrements('seq').primary();
    t.text('event_id').notNullable().unique();
    t.text('type').notNullable();
    t.text('base_id').notNullable();
    t.text('table_id').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('CREATE INDEX feed_table_idx ON ??.feed (table_id, seq)', [schema]);
  await db.raw('CREATE INDEX feed_base_idx ON ??.feed (base_id, seq)', [schema]);
  await db.raw('CREATE INDEX feed_created_idx ON ??.feed (created_at)', [schema]);
  await db.schema.withSchema(schema).createTable('feed_state', (t) => {
    t.integer('id').primary();
    t.bigInteger('pruned_through').notNullable().defaultTo(0);
  });
  await db.withSchema(schema).table('feed_state').insert({ id: 1, pruned_through: 0 });
  await db.schema.withSchema(schema).createTable('tickets', (t) => {
    t.text('hash').primary();
    t.jsonb('principal').notNullable();
    t.text('scope_kind').notNullable();
    t.text('scope_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });
}

/**
 * `stream_leases`: the open streams and WebSocket subscriptions of every
 * replica, one row each, counted per principal for the cluster-wide cap
 * (SVC_FEED_MAX_STREAMS_PER_PRINCIPAL). Each replica renews its rows' lease on
 * its heartbeat; the rows of a replica that died stop counting once expired.
 */
async function createStreamLeases(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('stream_leases', (t) => {
    t.text('id').primary();
    t.text('principal').notNullable();
    t.text('replica').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await db.raw('CREATE INDEX stream_leases_principal_idx ON ??.stream_leases (principal, expires_at)', [schema]);
  await db.raw('CREATE INDEX stream_leases_replica_idx ON ??.stream_leases (replica)', [schema]);
  await db.raw('CREATE INDEX stream_leases_expires_idx ON ??.stream_leases (expires_at)', [schema]);
}

/**
 * `feed.data` as `json`: the text as appended, so an event read back from the
 * log (a replay, another replica) has its rows' fields in the order the
 * records API gave them, like the event the appending replica hands its hub
 * (jsonb sorted the keys).
 */
async function feedDataAsJson(db: Knex, schema: string): Promise<void> {
  await db.raw('ALTER TABLE ??.feed ALTER COLUMN data TYPE json USING data::json', [schema]);
}

/** The realtime schema's migrations, in order. */
export const migrations: Migration[] = [
  { name: '001_feed', up: (db, schema) => createFeedTables(db, schema) },
  { name: '002_stream_leases', up: (db, schema) => createStreamLeases(db, schema) },
  { name: '003_feed_data_json', up: (db, schema) => feedDataAsJson(db, schema) },
];
