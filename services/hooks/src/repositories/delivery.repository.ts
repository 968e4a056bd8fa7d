import type { Knex } from 'knex';
import { HOOKS_SCHEMA, tbl } from './hooks-db';

/** Delivery states: pending → delivering → succeeded | failed | pending (retry) | cancelled. */
export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

/** One scheduled hook call (stable id = `webhook-id` across its attempts). */
export interface DeliveryRow {
  id: string;
  hook_id: string;
  event_id: string;
  event: string;
  operation: string;
  payload: unknown;
  user: { id?: string; email?: string } | null;
  test_call: boolean;
  attempt: number;
  next_attempt_at: Date;
  status: DeliveryStatus;
  locked_until: Date | null;
  /** Trace headers of the event that scheduled it (the attempt joins that trace). */
  trace_context?: Record<string, string> | null;
}

/** A delivery to insert. */
export type NewDelivery = Pick<DeliveryRow, 'id' | 'hook_id' | 'event_id' | 'event' | 'operation' | 'payload' | 'user' | 'trace_context'>;

/** Inserts deliveries (due now). */
export async function insertDeliveries(db: Knex, rows: NewDelivery[]): Promise<void> {
  if (!rows.length) return;
  await tbl(db, 'deliveries').insert(rows.map((r) => ({
    ...r, payload: JSON.stringify(r.payload), user: r.user ? JSON.stringify(r.user) : null,
    trace_context: r.trace_context ? JSON.stringify(r.trace_context) : null,
  })));
}

/**
 * Claims up to `limit` due deliveries (pending and due, or delivering with an
 * expired lock after a crash) for this process: `FOR UPDATE SKIP LOCKED` lets
 * replicas claim disjoint rows, the lock lasts the hook's timeout plus a margin,
 * and the attempt counter moves at claim time. `ids` narrows to given deliveries.
 */
export async function claimDue(db: Knex, limit: number, ids?: string[]): Promise<DeliveryRow[]> {
  const s = HOOKS_SCHEMA;
  const only = ids ? `AND d.id = ANY(?::uuid[])` : '';
  const bindings: unknown[] = ids ? [ids, limit] : [limit];
  const result = await db.raw(
    `UPDATE ??.deliveries AS d SET status = 'delivering', attempt = d.attempt + 1, updated_at = now(),
       locked_until = now() + make_interval(secs => (h.timeout + 30000) / 1000.0)
     FROM ??.hooks AS h
     WHERE h.id = d.hook_id AND d.id IN (
       SELECT d.id FROM ??.deliveries AS d
       WHERE ((d.status = 'pending' AND d.next_attempt_at <= now()) OR (d.status = 'delivering' AND d.locked_until < now())) ${only}
       ORDER BY d.next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
     RETURNING d.*`,
    [s, s, s, ...bindings] as Knex.RawBinding[],
  );
  return result.rows as DeliveryRow[];
}

/** Ends a delivery (succeeded, failed or cancelled). */
export async function finishDelivery(db: Knex, id: string, status: Exclude<DeliveryStatus, 'pending' | 'delivering'>): Promise<void> {
  await tbl(db, 'deliveries').where({ id }).update({ status, locked_until: null, updated_at: db.fn.now() });
}

/** Schedules the next attempt. */
export async function rescheduleDelivery(db: Knex, id: string, at: Date): Promise<void> {
  await tbl(db, 'deliveries').where({ id }).update({ status: 'pending', next_attempt_at: at, locked_until: null, updated_at: db.fn.now() });
}

/** Deliveries of one event for some hooks. */
export async function deliveriesOfEvent(db: Knex, eventId: string, hookIds: string[]): Promise<DeliveryRow[]> {
  if (!hookIds.length) return [];
  return tbl(db, 'deliveries').where({ event_id: eventId }).whereIn('hook_id', hookIds);
}

/** Forgets finished deliveries older than `olderThan`. */
export async function pruneDeliveries(db: Knex, olderThan: Date): Promise<number> {
  return tbl(db, 'deliveries').whereIn('status', ['succeeded', 'failed', 'cancelled']).where('updated_at', '<', olderThan).delete();
}
