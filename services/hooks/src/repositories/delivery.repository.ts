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

/**
 * Claims up to `limit` due deliveries (pending and due, or delivering with an
 * expired lock after a crash) for this process: `FOR UPDATE SKIP LOCKED` lets
 * replicas claim disjoint rows, the lock lasts the hook's timeout plus a margin,
 * and the attempt counter moves at claim time. `ids` narrows to given deliveries.
 * One statement: `UPDATE deliveries d … FROM hooks h WHERE h.id = d.hook_id AND
 * d.id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING d.*`.
 */
export async function claimDue(db: Knex, limit: number, ids?: string[]): Promise<DeliveryRow[]> {
  const due = DeliveryModel.query(db).alias('d').select('d.id')
    .where((w) => w
      .where((p) => p.where('d.status', 'pending').where('d.next_attempt_at', '<=', db.raw('now()')))
      .orWhere((l) => l.where('d.status', 'delivering').where('d.locked_until', '<', db.raw('now()'))))
    .modify((q) => {
      if (ids) q.whereRaw('d.id = ANY(?::uuid[])', [ids]);
    })
    .orderBy('d.next_attempt_at').limit(limit).forUpdate().skipLocked();
  return DeliveryModel.query(db).alias('d')
    .patch({
      status: 'delivering', attempt: db.raw('d.attempt + 1') as unknown as number, updated_at: db.raw('now()') as unknown as Date,
      locked_until: db.raw('now() + make_interval(secs => (h.timeout + 30000) / 1000.0)') as unknown as Date,
    })
    .onBuildKnex((knex) => knex.updateFrom(`${HookModel.tableName} as h`))
    .whereColumn('h.id', 'd.hook_id').whereIn('d.id', due)
    .returning('d.*');
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
    status: 'pending', attempt: db.raw('greatest(attempt - 1, 0)') as unknown as number, locked_until: null, updated_at: db.fn.now() as unknown as Date,
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
 * of the ids that were new. Hand-off deliveries are stored as claimed by this
 * process (`delivering`, attempt 1, `locked_until` like a claim), so no poller
 * takes them while the sender has them; a crash leaves them to the poll once
 * the lock expires, exactly like a claim.
 */
export async function ingestDeliveries(db: Knex, consumer: string, eventIds: string[], planned: PlannedDelivery[]): Promise<IngestResult> {
  const rows = planned.map((p) => ({
    id: p.id, hook_id: p.hook_id, event_id: p.event_id, event: p.event, operation: p.operation, payload: p.payload ?? null,
    user: p.user ?? null, trace_context: p.trace_context ?? null, hand_off: p.handOff, timeout: p.timeout,
  }));
  const result = await db.raw(
    `WITH p AS (
       INSERT INTO ??.processed_events (consumer, event_id) SELECT ?, e FROM unnest(?::text[]) AS e
       ON CONFLICT (consumer, event_id) DO NOTHING RETURNING event_id
     ), d AS (
       INSERT INTO ?? (id, hook_id, event_id, event, operation, payload, "user", trace_context, status, attempt, locked_until)
       SELECT x.id, x.hook_id, x.event_id, x.event, x.operation, x.payload, x."user", x.trace_context,
         CASE WHEN x.hand_off THEN 'delivering' ELSE 'pending' END, CASE WHEN x.hand_off THEN 1 ELSE 0 END,
         CASE WHEN x.hand_off THEN now() + make_interval(secs => (x.timeout + 30000) / 1000.0) END
       FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, hook_id text, event_id text, event text, operation text, payload jsonb,
         "user" jsonb, trace_context jsonb, hand_off boolean, timeout int)
       WHERE x.event_id IN (SELECT event_id FROM p)
       RETURNING id, status, attempt, locked_until, next_attempt_at
     )
     SELECT (SELECT coalesce(array_agg(event_id), '{}') FROM p) AS fresh,
            (SELECT coalesce(json_agg(d), '[]') FROM d) AS inserted`,
    [HOOKS_SCHEMA, consumer, eventIds, DeliveryModel.tableName, JSON.stringify(rows)] as Knex.RawBinding[],
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
