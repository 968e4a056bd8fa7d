import type { Knex } from 'knex';
import { REALTIME_SCHEMA } from './realtime-db';

const leases = (db: Knex) => db.withSchema(REALTIME_SCHEMA).table('stream_leases');

/** A stream to count: its id, whose it is, the replica serving it. */
export interface StreamLease {
  id: string;
  principal: string;
  replica: string;
}

/**
 * Adds a stream to its principal's count unless the principal already holds
 * `max` unexpired ones, across every replica. Atomic: a transaction-scoped
 * advisory lock per principal serializes the check and the insert, so two
 * replicas racing cannot both admit the one beyond the cap. Times are the
 * database's (one clock for every replica). True when admitted.
 */
export async function admitLease(db: Knex, lease: StreamLease, leaseMs: number, max: number): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx.raw("SELECT pg_advisory_xact_lock(hashtext('tabula.realtime.cap'), hashtext(?))", [lease.principal]);
    await leases(trx).where('principal', lease.principal).where('expires_at', '<', trx.fn.now()).delete();
    const row = await leases(trx).where('principal', lease.principal).count({ n: '*' }).first() as { n: string | number } | undefined;
    if (Number(row?.n ?? 0) >= max) return false;
    await leases(trx).insert({ ...lease, expires_at: trx.raw("now() + make_interval(secs => ?)", [leaseMs / 1000]) });
    return true;
  });
}

/** The stream ended: it no longer counts. */
export async function releaseLease(db: Knex, id: string): Promise<void> {
  await leases(db).where('id', id).delete();
}

/** A replica's heartbeat: the leases of its open streams (`ids`) run `leaseMs` from now. Answers how many it found. */
export async function renewLeases(db: Knex, ids: string[], leaseMs: number): Promise<number> {
  if (ids.length === 0) return 0;
  return leases(db).whereRaw('id = ANY(?)', [ids]).update({ expires_at: db.raw("now() + make_interval(secs => ?)", [leaseMs / 1000]) });
}

/** A replica stopping: none of its streams count any more. */
export async function releaseReplica(db: Knex, replica: string): Promise<void> {
  await leases(db).where('replica', replica).delete();
}

/** Deletes expired leases (of replicas that died without releasing). */
export async function pruneLeases(db: Knex): Promise<number> {
  return leases(db).where('expires_at', '<', db.fn.now()).delete();
}

/** Puts back leases that went missing while their streams are still open (a renewal came too late): they count again. */
export async function restoreLeases(db: Knex, rows: StreamLease[], leaseMs: number): Promise<void> {
  if (rows.length === 0) return;
  const expires = db.raw("now() + make_interval(secs => ?)", [leaseMs / 1000]);
  await leases(db).insert(rows.map((r) => ({ ...r, expires_at: expires }))).onConflict('id').merge(['expires_at']);
}
