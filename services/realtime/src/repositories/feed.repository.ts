import type { Knex } from 'knex';
import type { FeedEvent } from '@tabula/contracts';
import { REALTIME_SCHEMA } from './realtime-db';

/** The PostgreSQL channel a feed append notifies (every replica's hub listens). */
export const FEED_CHANNEL = 'tabula_realtime_feed';

/** One event to append: its bus id, type, base, table and the data object (without its id: the seq is). */
export interface FeedAppend {
  eventId: string;
  type: string;
  baseId: string;
  tableId: string;
  data: Omit<FeedEvent, 'id'>;
}

/** A row of the feed as read back. */
export interface FeedRow {
  seq: string;
  type: string;
  base_id: string;
  table_id: string;
  data: Omit<FeedEvent, 'id'>;
  /** Not stored: the event and its JSON, made once and shared by every stream the row goes to unfiltered. */
  memo?: { event: FeedEvent; json?: string };
}

const feed = (db: Knex) => db.withSchema(REALTIME_SCHEMA).table('feed');

/**
 * Appends events in one transaction under the feed's advisory lock (appends are
 * serial, so seq order is commit order), skipping ids already there (the bus
 * delivers at least once), and notifies the hubs. Answers how many were new.
 */
export async function appendFeedEvents(db: Knex, events: FeedAppend[]): Promise<number> {
  if (events.length === 0) return 0;
  return db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('tabula.realtime.feed'))");
    const rows = events.map((e) => ({ event_id: e.eventId, type: e.type, base_id: e.baseId, table_id: e.tableId, data: JSON.stringify(e.data) }));
    const inserted = await feed(trx).insert(rows).onConflict('event_id').ignore().returning('seq');
    if (inserted.length > 0) await trx.raw(`NOTIFY ${FEED_CHANNEL}`);
    return inserted.length;
  });
}

/** Rows after `afterSeq` (all tables, or one table, or one base), oldest first. */
export async function readFeed(db: Knex, afterSeq: string, limit: number, only?: { tableId?: string; baseId?: string }): Promise<FeedRow[]> {
  const query = feed(db).select('seq', 'type', 'base_id', 'table_id', 'data').where('seq', '>', afterSeq).orderBy('seq').limit(limit);
  if (only?.tableId) query.where('table_id', only.tableId);
  if (only?.baseId) query.where('base_id', only.baseId);
  const rows = (await query) as FeedRow[];
  for (const row of rows) row.seq = String(row.seq);
  return rows;
}

/** The newest seq (0 when the log is empty). */
export async function lastSeq(db: Knex): Promise<string> {
  const row = await feed(db).max({ seq: 'seq' }).first() as { seq: string | number | null } | undefined;
  return String(row?.seq ?? 0);
}

/** The highest seq retention has deleted. */
export async function prunedThrough(db: Knex): Promise<string> {
  const row = await db.withSchema(REALTIME_SCHEMA).table('feed_state').where({ id: 1 }).first('pruned_through') as { pruned_through: string | number } | undefined;
  return String(row?.pruned_through ?? 0);
}

/** Deletes rows older than `cutoff` and records the highest deleted seq. */
export async function pruneFeed(db: Knex, cutoff: Date): Promise<number> {
  const result = await db.raw<{ rows: { deleted: string | number }[] }>(
    `WITH d AS (DELETE FROM ${REALTIME_SCHEMA}.feed WHERE created_at < ? RETURNING seq),
     u AS (UPDATE ${REALTIME_SCHEMA}.feed_state SET pruned_through = greatest(pruned_through, (SELECT coalesce(max(seq), 0) FROM d)) WHERE id = 1)
     SELECT count(*) AS deleted FROM d`, [cutoff]);
  return Number(result.rows[0]?.deleted ?? 0);
}
