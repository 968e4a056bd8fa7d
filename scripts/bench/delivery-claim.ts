/**
 * Delivery claims under a backlog: milliseconds per `claimDue` (its
 * transaction, the advisory lock and the claim statement) of 1 and of 32
 * deliveries, with 1,000, 4,000 and 10,000 first attempts pending for one
 * hook, beside the baseline measured in the same run on the same rows: the
 * statement it replaced (one OR over pending and in-flight rows, with the
 * indexes it used, created for its rounds and dropped after them). Rounds
 * alternate baseline and current; medians are printed. A claimed batch is
 * handed back (pending again) after each claim, so the backlog stays the same.
 * Needs DATABASE_URL (a fresh database is made beside it and dropped).
 * Usage: npx tsx scripts/bench/delivery-claim.ts [--rounds 3 --claims 20]
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { migrations } from '../../services/hooks/migrations';
import { insertHook } from '../../services/hooks/src/repositories/hook.repository';
import { HOOKS_SCHEMA } from '../../services/hooks/src/repositories/hooks-db';
import { claimDue, insertDeliveries, type DeliveryRow } from '../../services/hooks/src/repositories/delivery.repository';
import { dropDatabase, freshDatabase } from './records-fixture';
import { median } from './seeded-standalone';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg('rounds', 3);
const claims = arg('claims', 20);
const claimer = { workerId: 'bench-worker', deadAfterMs: 15_000 };
const HOOK = 'hk_bench_claim';

/** The indexes of migrations 001, 003 and 005 the former statement was planned with (006 dropped them). */
const FORMER_INDEXES = [
  "CREATE INDEX IF NOT EXISTS deliveries_due_idx ON hooks.deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering')",
  "CREATE INDEX IF NOT EXISTS deliveries_pending_due_idx ON hooks.deliveries (next_attempt_at) WHERE status = 'pending'",
  "CREATE INDEX IF NOT EXISTS deliveries_pending_seq_idx ON hooks.deliveries (seq) WHERE status = 'pending'",
];

/** The claim as it was before migration 006 (the baseline), in the same transaction shape as claimDue. */
function formerClaim(db: Knex, limit: number): Promise<DeliveryRow[]> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['deliveries.claim']);
    const result = await trx.raw(
      `WITH dead AS (
         SELECT id FROM hooks.workers WHERE seen_at < now() - make_interval(secs => ?::float8 / 1000)
       ), due AS (
         SELECT d.id FROM hooks.deliveries d
         WHERE ((d.status = 'pending' AND d.next_attempt_at <= now())
             OR (d.status = 'delivering' AND (d.locked_until < now() OR d.claimed_by IN (SELECT id FROM dead))))
           AND (?::uuid[] IS NULL OR d.id = ANY(?::uuid[]))
           AND (NOT (d.status = 'pending' AND d.attempt = 0) OR d.test_call OR NOT EXISTS (
             SELECT 1 FROM hooks.deliveries e
             WHERE e.hook_id = d.hook_id AND e.seq < d.seq
               AND NOT e.test_call AND ((e.status = 'pending' AND e.attempt = 0) OR (e.status = 'delivering' AND e.attempt = 1))
               AND e.status = 'delivering' AND e.locked_until >= now() AND e.claimed_by IS DISTINCT FROM ?
               AND NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = e.claimed_by)))
         ORDER BY d.seq LIMIT ? FOR UPDATE OF d SKIP LOCKED
       )
       UPDATE hooks.deliveries AS d SET status = 'delivering', attempt = d.attempt + 1, updated_at = now(), claimed_by = ?,
         locked_until = now() + make_interval(secs => (h.timeout + 30000) / 1000.0)
       FROM hooks.hooks AS h WHERE h.id = d.hook_id AND d.id IN (SELECT id FROM due)
       RETURNING d.*`,
      [claimer.deadAfterMs, null, null, claimer.workerId, limit, claimer.workerId],
    );
    return result.rows as DeliveryRow[];
  });
}

/** Milliseconds per claim of `limit` (median over `claims` claims), handing each claimed batch back. */
async function timeClaims(db: Knex, limit: number, claim: (db: Knex, limit: number) => Promise<DeliveryRow[]>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < claims; i++) {
    const started = process.hrtime.bigint();
    const got = await claim(db, limit);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (got.length !== limit) throw new Error(`claimed ${got.length} of ${limit}`);
    await db.withSchema(HOOKS_SCHEMA).table('deliveries').whereIn('id', got.map((d) => d.id))
      .update({ status: 'pending', attempt: 0, locked_until: null, claimed_by: null });
  }
  return median(times);
}

async function main(): Promise<void> {
  const url = await freshDatabase('claim');
  const db = createKnex({ url, poolMax: 2 });
  try {
    await runMigrations(db, HOOKS_SCHEMA, migrations);
    await insertHook(db, {
      id: HOOK, fk_model_id: 'tbl_bench', base_id: 'b_bench', title: 'bench', description: null, event: 'after', operation: ['insert'],
      notification: { type: 'URL', payload: { method: 'POST', path: 'http://127.0.0.1:1/x' } }, active: true, async: true, retries: 5,
      retry_interval: 100, timeout: 5000, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: 'v3.bench.not.a.secret',
    } as never);
    await db.raw('INSERT INTO hooks.workers (id) VALUES (?)', [claimer.workerId]);
    const current = (d: Knex, limit: number) => claimDue(d, limit, claimer);
    console.log(`| pending first attempts | claim of | baseline (former statement) ms | claimDue ms |\n|---:|---:|---:|---:|`);
    let pending = 0;
    for (const backlog of [1000, 4000, 10_000]) {
      for (let n = pending; n < backlog; n += 1000) {
        await insertDeliveries(db, Array.from({ length: Math.min(1000, backlog - n) }, (_, i) => ({
          id: randomUUID(), hook_id: HOOK, event_id: `ev_${n + i}`, event: 'after', operation: 'insert',
          payload: { n: n + i, Title: 'a record of the bench backlog', text: 'x'.repeat(200) }, user: null, trace_context: null,
        })));
      }
      pending = backlog;
      await db.raw('ANALYZE hooks.deliveries');
      for (const limit of [1, 32]) {
        const before: number[] = [];
        const after: number[] = [];
        for (let round = 0; round < rounds; round++) {
          for (const sql of FORMER_INDEXES) await db.raw(sql);
          await db.raw('ANALYZE hooks.deliveries');
          before.push(await timeClaims(db, limit, formerClaim));
          for (const sql of FORMER_INDEXES) await db.raw(`DROP INDEX IF EXISTS hooks.${/INDEX IF NOT EXISTS (\w+)/.exec(sql)![1]}`);
          after.push(await timeClaims(db, limit, current));
        }
        console.log(`| ${backlog.toLocaleString('en')} | ${limit} | ${median(before).toFixed(2)} | ${median(after).toFixed(2)} |`);
      }
    }
  } finally {
    await db.destroy();
    await dropDatabase(url);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
