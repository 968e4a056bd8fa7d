import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { HOOKS_SCHEMA } from './hooks-db';
import { HookModel } from './hook.repository';
import { HookLogModel } from './hook-log.repository';

/** Delivery states: pending → delivering → succeeded | failed | pending (retry) | cancelled. */
export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

/** One scheduled hook call (`hooks.deliveries`; stable id = `webhook-id` across its attempts). */
export class DeliveryModel extends BaseModel {
  static override tableName = `${HOOKS_SCHEMA}.deliveries`;
  /** `payload` is NOT NULL: a null payload is stored as the JSON null. */
  static override jsonValueColumns = ['payload'];
  static override jsonColumns = ['user', 'trace_context'];

  declare id: string;
  declare hook_id: string;
  declare event_id: string;
  declare event: string;
  declare operation: string;
  declare payload: unknown;
  declare user: { id?: string; email?: string } | null;
  declare test_call: boolean;
  declare attempt: number;
  declare next_attempt_at: Date;
  declare status: DeliveryStatus;
  declare locked_until: Date | null;
  /** Scheduling order (identity): first attempts of one hook start in this order, across processes. */
  declare seq?: string;
  /** The delivery process (`workers.id`) that claimed it last. */
  declare claimed_by?: string | null;
  /** Trace headers of the event that scheduled it (the attempt joins that trace). */
  declare trace_context?: Record<string, string> | null;
  declare created_at?: Date;
  declare updated_at?: Date;
}

/** One scheduled hook call. */
export type DeliveryRow = RowOf<DeliveryModel>;

/** A delivery to insert. */
export type NewDelivery = Pick<DeliveryRow, 'id' | 'hook_id' | 'event_id' | 'event' | 'operation' | 'payload' | 'user' | 'trace_context'>;

/** Inserts deliveries (due now), in one statement. */
export async function insertDeliveries(db: Knex, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  await DeliveryModel.query(db).insert(rows.map((r) => ({ ...r, user: r.user || null, trace_context: r.trace_context || null })));
}

/** Who claims: this process's worker id, and how long a silent worker is still taken for alive. */
export interface Claimer {
  workerId: string;
  /** A worker whose heartbeat is older than this is dead: its claims are taken over before their locks expire. */
  deadAfterMs: number;
}

/** A first attempt not finished yet (pending never tried, or in flight for the first time); test calls are outside the order. */
const FIRST_UNFINISHED = `NOT e.test_call AND ((e.status = 'pending' AND e.attempt = 0) OR (e.status = 'delivering' AND e.attempt = 1))`;

/**
 * Claims up to `limit` due deliveries for this process (pending and due; in
 * flight with an expired lock, or claimed by a worker whose heartbeat stopped),
 * oldest scheduled first, and returns them in that order. The lock lasts the
 * hook's timeout plus a margin and the attempt counter moves at claim time.
 * `ids` narrows to given deliveries.
 *
 * Order: a hook's first attempts start in the order they were scheduled, on
 * every replica. A first attempt is not claimed while an earlier first attempt
 * of its hook is in flight on another live process (that process starts its
 * claims in order; this one waits for it to finish). Claims of all processes
 * are serialized by a transaction-level advisory lock, taken before the claim
 * statement so that statement's snapshot sees every earlier claim committed.
 *
 * Cost follows `limit`, not the backlog: three branches, each walking an
 * index in its own order and stopping at `limit` rows: first attempts by
 * `seq` (`deliveries_first_pending_idx`), due retries by `next_attempt_at`
 * (`deliveries_retry_due_idx`: retries waiting for later are never read),
 * and expired or orphaned claims (`deliveries_inflight_idx`: the rows in
 * flight, at most each worker's concurrency plus its hand-off queue); the
 * oldest scheduled `limit` of those are claimed.
 * The ordering check probes only in-flight rows. The single statement this
 * replaces (an OR over both states) made PostgreSQL collect and sort every
 * due row and check each one's order (JIT-compiled from about 10,000 on):
 * 3.5 ms per claim of one at 1,000 pending, 5.6 ms at 4,000, 36 ms at
 * 10,000, against 2–3 ms at any backlog now (scripts/bench/delivery-claim.ts),
 * so a worker that fell behind fell further behind (while saturated it claims
 * once per freed send slot).
 */
export async function claimDue(db: Knex, limit: number, claimer: Claimer, ids?: string[]): Promise<DeliveryRow[]> {
  const deliveries = DeliveryModel.tableName;
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${deliveries}.claim`]);
    const result = await trx.raw(
      `WITH dead AS MATERIALIZED (
         SELECT id FROM ??.workers WHERE seen_at < now() - make_interval(secs => ?::float8 / 1000)
       ), first AS (
         SELECT d.id, d.seq FROM ?? d
          WHERE d.status = 'pending' AND d.attempt = 0 AND d.next_attempt_at <= now()
            AND (?::uuid[] IS NULL OR d.id = ANY(?::uuid[]))
            AND (d.test_call OR NOT EXISTS (
              SELECT 1 FROM ?? e
              WHERE e.status = 'delivering' AND e.locked_until >= now() AND e.hook_id = d.hook_id AND e.seq < d.seq
                AND e.attempt = 1 AND NOT e.test_call AND e.claimed_by IS DISTINCT FROM ?
                AND NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = e.claimed_by)))
          ORDER BY d.seq LIMIT ? FOR UPDATE OF d SKIP LOCKED
       ), retry AS (
         SELECT d.id, d.seq FROM ?? d
          WHERE d.status = 'pending' AND d.attempt > 0 AND d.next_attempt_at <= now()
            AND (?::uuid[] IS NULL OR d.id = ANY(?::uuid[]))
          ORDER BY d.next_attempt_at LIMIT ? FOR UPDATE OF d SKIP LOCKED
       ), expired AS (
         SELECT d.id, d.seq FROM ?? d
          WHERE d.status = 'delivering' AND (d.locked_until < now() OR d.claimed_by IN (SELECT id FROM dead))
            AND (?::uuid[] IS NULL OR d.id = ANY(?::uuid[]))
          ORDER BY d.seq LIMIT ? FOR UPDATE OF d SKIP LOCKED
       ), picked AS (
         SELECT id FROM (SELECT id, seq FROM first UNION ALL SELECT id, seq FROM retry UNION ALL SELECT id, seq FROM expired) AS due ORDER BY seq LIMIT ?
       )
       UPDATE ?? AS d SET status = 'delivering', attempt = d.attempt + 1, updated_at = now(), claimed_by = ?,
         locked_until = now() + make_interval(secs => (h.timeout + 30000) / 1000.0)
       FROM ?? AS h WHERE h.id = d.hook_id AND d.id IN (SELECT id FROM picked)
       RETURNING d.*`,
      [HOOKS_SCHEMA, claimer.deadAfterMs, deliveries, ids ?? null, ids ?? null, deliveries, claimer.workerId, limit,
        deliveries, ids ?? null, ids ?? null, limit, deliveries, ids ?? null, ids ?? null, limit, limit,
        deliveries, claimer.workerId, HookModel.tableName] as Knex.RawBinding[],
    );
    return (result.rows as DeliveryRow[]).sort((a, b) => Number(a.seq) - Number(b.seq));
  });
}

/** Records that this delivery process is alive (its claims are waited for, not taken over). */
export async function heartbeat(db: Knex, workerId: string): Promise<void> {
  await db.raw(`INSERT INTO ??.workers (id, seen_at) VALUES (?, now()) ON CONFLICT (id) DO UPDATE SET seen_at = now()`, [HOOKS_SCHEMA, workerId]);
}

/** Removes a delivery process's heartbeat (graceful stop), or every heartbeat older than `olderThan` (prune). */
export async function forgetWorkers(db: Knex, which: { workerId: string } | { olderThan: Date }): Promise<void> {
  if ('workerId' in which) await db.raw('DELETE FROM ??.workers WHERE id = ?', [HOOKS_SCHEMA, which.workerId]);
  else await db.raw('DELETE FROM ??.workers WHERE seen_at < ?', [HOOKS_SCHEMA, which.olderThan]);
}

/** Deliveries of one event for some hooks. */
export async function deliveriesOfEvent(db: Knex, eventId: string, hookIds: string[]): Promise<DeliveryRow[]> {
  if (!hookIds.length) return [];
  return DeliveryModel.query(db).where({ event_id: eventId }).whereIn('hook_id', hookIds);
}

/** Forgets finished deliveries older than `olderThan`. */
export async function pruneDeliveries(db: Knex, olderThan: Date): Promise<number> {
  return DeliveryModel.query(db).whereIn('status', ['succeeded', 'failed', 'cancelled']).where('updated_at', '<', olderThan).delete();
}

/** Gives back claimed deliveries that were never attempted (graceful stop): pending again, attempt counter restored. */
export async function releaseClaims(db: Knex, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await DeliveryModel.query(db).whereIn('id', ids).where({ status: 'delivering' }).patch({
    status: 'pending', attempt: db.raw('greatest(attempt - 1, 0)') as unknown as number, locked_until: null, claimed_by: null,
    updated_at: db.fn.now() as unknown as Date,
  });
}

/** A planned delivery of {@link ingestDeliveries}: `handOff` ones are inserted already claimed (attempt 1, locked). */
export interface PlannedDelivery extends NewDelivery {
  handOff: boolean;
  /** The hook's timeout (the claim lock lasts it plus 30 s, as in {@link claimDue}). */
  timeout: number;
}

/** What {@link ingestDeliveries} wrote. */
export interface IngestResult {
  /** Event ids seen for the first time (the others were duplicates: nothing inserted for them). */
  freshEventIds: Set<string>;
  /** Inserted deliveries, with their state as stored. */
  inserted: Array<{ id: string; status: DeliveryStatus; attempt: number; locked_until: Date | null; next_attempt_at: Date }>;
}

/*
 * The two batch statements below stay SQL text (run on the knex handed in, table
 * names taken from the models). Each is ONE statement for a whole batch, built of
 * data-modifying CTEs over `jsonb_to_recordset` (INSERT … SELECT with a column
 * list, ON CONFLICT DO NOTHING RETURNING, UPDATE … FROM a record set, and a
 * final SELECT over both CTEs): objection's query builder (and knex under it)
 * has no INSERT … SELECT with a column list nor a FROM that is a function call,
 * so written as models they would become two or more statements per batch and
 * lose the atomicity they rely on.
 */

/**
 * One statement (so one round trip, atomically): records the event ids as
 * processed by `consumer` (ON CONFLICT DO NOTHING: a redelivered or concurrent
 * duplicate waits on the key, then finds it) and inserts the planned deliveries
 * of the ids that were new, in the order given (their `seq`). Hand-off
 * deliveries are stored as claimed by this process (`delivering`, attempt 1,
 * `locked_until` like a claim, `claimed_by` = `workerId`), so no poller takes
 * them while the sender has them; a crash leaves them to the poll once the
 * lock expires or the heartbeat stops, exactly like a claim. A hook with an
 * earlier first attempt not in flight here (pending, or another process's)
 * gets no hand-off: its deliveries wait, pending, for the poll, which claims
 * them in order (see {@link claimDue}). The check is an EXISTS per hook of
 * the batch: it stops at the first such row instead of collecting every
 * pending first attempt of the hook (a backlog's worth per batch).
 */
export async function ingestDeliveries(db: Knex, consumer: string, eventIds: string[], planned: PlannedDelivery[], workerId: string): Promise<IngestResult> {
  const rows = planned.map((p, n) => ({
    id: p.id, hook_id: p.hook_id, event_id: p.event_id, event: p.event, operation: p.operation, payload: p.payload ?? null,
    user: p.user ?? null, trace_context: p.trace_context ?? null, hand_off: p.handOff, timeout: p.timeout, n,
  }));
  const handOffHooks = [...new Set(planned.filter((p) => p.handOff).map((p) => p.hook_id))];
  const result = await db.raw(
    `WITH p AS (
       INSERT INTO ??.processed_events (consumer, event_id) SELECT ?, e FROM unnest(?::text[]) AS e
       ON CONFLICT (consumer, event_id) DO NOTHING RETURNING event_id
     ), blocked AS (
       SELECT h.hook_id FROM unnest(?::text[]) AS h(hook_id)
       WHERE EXISTS (
         SELECT 1 FROM ?? e
         WHERE e.hook_id = h.hook_id AND ${FIRST_UNFINISHED}
           AND NOT (e.status = 'delivering' AND e.claimed_by = ? AND e.locked_until >= now()))
     ), x AS (
       SELECT r.*, r.hand_off AND NOT EXISTS (SELECT 1 FROM blocked b WHERE b.hook_id = r.hook_id) AS go
       FROM jsonb_to_recordset(?::jsonb) AS r(id uuid, hook_id text, event_id text, event text, operation text, payload jsonb,
         "user" jsonb, trace_context jsonb, hand_off boolean, timeout int, n int)
       WHERE r.event_id IN (SELECT event_id FROM p)
     ), d AS (
       INSERT INTO ?? (id, hook_id, event_id, event, operation, payload, "user", trace_context, status, attempt, locked_until, claimed_by)
       SELECT x.id, x.hook_id, x.event_id, x.event, x.operation, x.payload, x."user", x.trace_context,
         CASE WHEN x.go THEN 'delivering' ELSE 'pending' END, CASE WHEN x.go THEN 1 ELSE 0 END,
         CASE WHEN x.go THEN now() + make_interval(secs => (x.timeout + 30000) / 1000.0) END,
         CASE WHEN x.go THEN ?::text END
       FROM x ORDER BY x.n
       RETURNING id, status, attempt, locked_until, next_attempt_at
     )
     SELECT (SELECT coalesce(array_agg(event_id), '{}') FROM p) AS fresh,
            (SELECT coalesce(json_agg(d), '[]') FROM d) AS inserted`,
    [HOOKS_SCHEMA, consumer, eventIds, handOffHooks, DeliveryModel.tableName, workerId, JSON.stringify(rows), DeliveryModel.tableName, workerId] as Knex.RawBinding[],
  );
  const row = result.rows[0] as { fresh: string[]; inserted: Array<{ id: string; status: DeliveryStatus; attempt: number; locked_until: string | null; next_attempt_at: string }> };
  return {
    freshEventIds: new Set(row.fresh),
    inserted: row.inserted.map((d) => ({ ...d, locked_until: d.locked_until ? new Date(d.locked_until) : null, next_attempt_at: new Date(d.next_attempt_at) })),
  };
}

/** The end of one attempt: its log row (absent for a cancelled delivery) and the delivery's next state. */
export interface AttemptCompletion {
  deliveryId: string;
  status: Exclude<DeliveryStatus, 'delivering'>;
  /** For a retry (`pending`). */
  nextAttemptAt?: Date;
  log?: Record<string, unknown>;
}

/**
 * Records several finished attempts in one statement: inserts their log rows
 * (skipping logs of hooks deleted meanwhile, whose deliveries cascaded away)
 * and moves each delivery to its next state.
 */
export async function completeAttempts(db: Knex, completions: AttemptCompletion[]): Promise<void> {
  if (!completions.length) return;
  const logs = completions.filter((c) => c.log).map((c) => c.log);
  const states = completions.map((c) => ({ id: c.deliveryId, status: c.status, next_attempt_at: c.nextAttemptAt?.toISOString() ?? null }));
  await db.raw(
    `WITH l AS (
       INSERT INTO ?? (id, fk_hook_id, base_id, fk_model_id, delivery_id, attempt, type, event, operation, payload, response,
         error_message, execution_time, triggered_by, test_call)
       SELECT x.id, x.fk_hook_id, x.base_id, x.fk_model_id, x.delivery_id, x.attempt, x.type, x.event, x.operation, x.payload, x.response,
         x.error_message, x.execution_time, x.triggered_by, x.test_call
       FROM jsonb_to_recordset(?::jsonb) AS x(id text, fk_hook_id text, base_id text, fk_model_id text, delivery_id uuid, attempt int, type text,
         event text, operation text, payload jsonb, response jsonb, error_message text, execution_time int, triggered_by text, test_call boolean)
       WHERE EXISTS (SELECT 1 FROM ?? AS h WHERE h.id = x.fk_hook_id)
       RETURNING 1
     ), u AS (
       UPDATE ?? AS d SET status = x.status, next_attempt_at = coalesce(x.next_attempt_at, d.next_attempt_at),
         locked_until = NULL, updated_at = now()
       FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, status text, next_attempt_at timestamptz)
       WHERE d.id = x.id
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM l) AS logged, (SELECT count(*) FROM u) AS updated`,
    [HookLogModel.tableName, JSON.stringify(logs), HookModel.tableName, DeliveryModel.tableName, JSON.stringify(states)] as Knex.RawBinding[],
  );
}
