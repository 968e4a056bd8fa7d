import type { Knex } from 'knex';
import type { FeedEvent } from '@tabula/contracts';
import { canPrepare, prepareStatement, queryPrepared, type PreparedStatement } from '@tabula/db';
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
  /** `seq` as a number (converted once per row, not once per stream it is offered to). */
  n: number;
  /** A record event (`records.*`), the only kind table streams carry. */
  record: boolean;
  type: string;
  base_id: string;
  table_id: string;
  data: Omit<FeedEvent, 'id'>;
  /** Not stored: the row's output per filter key (domain/feed-output.ts; null: filtered out), made once and shared by every stream with that key. */
  memo?: Map<string, object | null>;
}

const feed = (db: Knex) => db.withSchema(REALTIME_SCHEMA).table('feed');

/** The append (see {@link appendFeedEvents}); `?`: the events as JSON, the channel. */
const APPEND_SQL = `WITH serial AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtext('tabula.realtime.feed'))),
     added AS (
       INSERT INTO ${REALTIME_SCHEMA}.feed (event_id, type, base_id, table_id, data)
       SELECT e.event_id, e.type, e.base_id, e.table_id, e.data
       FROM serial, ROWS FROM (json_to_recordset(?::json) AS (event_id text, type text, base_id text, table_id text, data json))
         WITH ORDINALITY AS e(event_id, type, base_id, table_id, data, n)
       ORDER BY e.n
       ON CONFLICT (event_id) DO NOTHING
       RETURNING seq, event_id),
     notified AS (SELECT pg_notify(?, (SELECT max(seq) FROM added)::text) FROM (SELECT 1 FROM added LIMIT 1) one)
     SELECT seq, event_id, (SELECT count(*) FROM notified) AS notified FROM added ORDER BY seq`;

/** The append as a named statement (PostgreSQL parses and plans it once per connection; compiled on first use). */
let appendStatement: PreparedStatement | undefined;

/**
 * Appends events in one statement (one round trip) and answers the rows that
 * were new, in seq order; the hubs are notified with the highest new seq.
 * The statement takes the feed's transaction-level advisory lock before any
 * row gets its seq (the lock's CTE is scanned before the first row reaches
 * the INSERT), so appends are serial and seq order is commit order; ids
 * already there are skipped (the bus delivers at least once). On a pool it
 * runs as a named statement: parsing and planning this statement was more
 * than a third of an append's time in PostgreSQL (850 → 540 µs per
 * eight-event append, docs/benchmarks.md).
 */
export async function appendFeedEvents(db: Knex, events: FeedAppend[]): Promise<FeedRow[]> {
  if (events.length === 0) return [];
  const rows = events.map((e) => ({ event_id: e.eventId, type: e.type, base_id: e.baseId, table_id: e.tableId, data: e.data }));
  const values = [JSON.stringify(rows), FEED_CHANNEL];
  const added = canPrepare(db)
    ? await queryPrepared<{ seq: string | number; event_id: string }>(db, appendStatement ??= prepareStatement(db, APPEND_SQL), values)
    : (await db.raw<{ rows: { seq: string | number; event_id: string }[] }>(APPEND_SQL, values)).rows;
  const byId = new Map(events.map((e) => [e.eventId, e]));
  return added.map((row) => {
    const e = byId.get(row.event_id) as FeedAppend;
    return { seq: String(row.seq), n: Number(row.seq), record: e.type.startsWith('records.'), type: e.type, base_id: e.baseId, table_id: e.tableId, data: e.data };
  });
}

/** Rows after `afterSeq` (all tables, or one table, or one base), oldest first. */
export async function readFeed(db: Knex, afterSeq: string, limit: number, only?: { tableId?: string; baseId?: string }): Promise<FeedRow[]> {
  const query = feed(db).select('seq', 'type', 'base_id', 'table_id', 'data').where('seq', '>', afterSeq).orderBy('seq').limit(limit);
  if (only?.tableId) query.where('table_id', only.tableId);
  if (only?.baseId) query.where('base_id', only.baseId);
  const rows = (await query) as FeedRow[];
  for (const row of rows) {
    row.seq = String(row.seq);
    row.n = Number(row.seq);
    row.record = row.type.startsWith('records.');
  }
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
