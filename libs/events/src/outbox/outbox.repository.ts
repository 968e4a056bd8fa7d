import type { Knex } from 'knex';
import type { EventHeaders, PublishInput } from '../event-bus';

/** A row of `<schema>.outbox` as the relay reads it. */
export interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  type: string;
  version: number;
  payload: Buffer;
  headers: EventHeaders;
  created_at: Date;
}

/**
 * Transaction-scoped advisory lock per outbox: one relay publishes a schema's
 * outbox at a time, so rows leave in `seq` order and per-key order survives
 * several replicas. Non-blocking: a relay that loses simply returns, the holder
 * drains until the outbox is empty.
 */
export async function tryLockOutbox(trx: Knex.Transaction, schema: string): Promise<boolean> {
  const result = await trx.raw<{ rows: Array<{ locked: boolean }> }>(
    "SELECT pg_try_advisory_xact_lock(hashtext('tabula.outbox'), hashtext(?)) AS locked",
    [schema],
  );
  return result.rows[0].locked;
}

/** Locks the oldest unpublished rows; SKIP LOCKED so no row is ever claimed by two relays. */
export function claimBatch(trx: Knex.Transaction, schema: string, limit: number): Promise<OutboxRow[]> {
  return trx
    .withSchema(schema)
    .table('outbox')
    .select('id', 'topic', 'key', 'type', 'version', 'payload', 'headers', 'created_at')
    .whereNull('published_at')
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked();
}

/** Marks rows as sent (inside the claiming transaction). */
export async function markPublished(trx: Knex.Transaction, schema: string, ids: string[]): Promise<void> {
  await trx
    .withSchema(schema)
    .table('outbox')
    .whereIn('id', ids)
    .update({ published_at: trx.fn.now(), attempts: trx.raw('attempts + 1'), last_error: null });
}

/** Records a failed attempt (after the claiming transaction rolled back). */
export async function recordFailure(knex: Knex, schema: string, ids: string[], error: unknown): Promise<void> {
  await knex
    .withSchema(schema)
    .table('outbox')
    .whereIn('id', ids)
    .whereNull('published_at')
    .update({ attempts: knex.raw('attempts + 1'), last_error: String((error as Error)?.message ?? error).slice(0, 2000) });
}

/** Deletes up to `limit` rows published before `cutoff`; returns how many. */
export function deletePublishedBefore(knex: Knex, schema: string, cutoff: Date, limit: number): Promise<number> {
  const oldest = knex.withSchema(schema).table('outbox').select('id').where('published_at', '<', cutoff).limit(limit);
  return knex.withSchema(schema).table('outbox').whereIn('id', oldest).delete();
}

/** The bus message of a row: same id (consumers dedupe on it), original time and trace context. */
export function toPublishInput(row: OutboxRow): PublishInput {
  return {
    id: row.id,
    topic: row.topic,
    key: row.key,
    type: row.type,
    version: row.version,
    payload: new Uint8Array(row.payload),
    headers: row.headers,
    timestamp: new Date(row.created_at).toISOString(),
  };
}

/** Rows not yet published and the age (seconds) of the oldest; 0 when none. */
export async function outboxLag(knex: Knex, schema: string): Promise<{ unsent: number; oldestAgeSeconds: number }> {
  const result = await knex.raw<{ rows: Array<{ unsent: number; age: number | null }> }>(
    'SELECT count(*)::int AS unsent, extract(epoch FROM now() - min(created_at))::float8 AS age FROM ??.outbox WHERE published_at IS NULL',
    [schema],
  );
  const row = result.rows[0];
  return { unsent: row?.unsent ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}
