import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { migrations } from '../migrations';
import { insertHook } from '../src/repositories/hook.repository';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { claimDue, ingestDeliveries, insertDeliveries } from '../src/repositories/delivery.repository';

/**
 * The claim and the ingestion's order check read rows in proportion to their
 * batch, not to the backlog: with 6,000 first attempts pending and 2,000
 * retries due only later, EXPLAIN ANALYZE of the very statements they send
 * (captured from knex) reads at most a few hundred rows in any plan node and
 * compiles nothing (no JIT). The statement the claim replaced read and sorted
 * every due row (and checked each one's order): it fails this test.
 */
let database: TestDatabase;
let db: Knex;
const claimer = { workerId: 'plan-worker', deadAfterMs: 15_000 };
const BACKLOG = 6000;
const WAITING_RETRIES = 2000;

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] }
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/**
 * Runs `work` in a transaction rolled back afterwards, captures the statement matching `marker` it sent, and
 * runs that statement again under EXPLAIN ANALYZE (on the same, untouched rows; rolled back too).
 */
async function explainOf(work: (trx: Knex) => Promise<unknown>, marker: string): Promise<{ nodes: PlanNode[]; jit: boolean }> {
  const seen: Array<{ sql: string; bindings: unknown[] }> = [];
  const capture = (q: { sql: string; bindings?: unknown[] }) => { if (q.sql.includes(marker)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] }); };
  db.on('query', capture);
  const undo = new Error('rolled back');
  try {
    await db.transaction(async (trx) => { await work(trx); throw undo; }).catch((err) => { if (err !== undo) throw err; });
  } finally {
    db.off('query', capture);
  }
  expect(seen).toHaveLength(1);
  const client = db.client as { acquireConnection(): Promise<PgClient>; releaseConnection(c: PgClient): Promise<void> };
  const conn = await client.acquireConnection();
  try {
    await conn.query('BEGIN');
    const res = await conn.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${seen[0].sql}`, seen[0].bindings);
    const plan = res.rows[0]['QUERY PLAN'][0] as { Plan: PlanNode; JIT?: unknown };
    return { nodes: nodes(plan.Plan), jit: plan.JIT !== undefined };
  } finally {
    await conn.query('ROLLBACK');
    await client.releaseConnection(conn);
  }
}
interface PgClient { query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown[]>> }> }
const mostRowsOfANode = (plan: { nodes: PlanNode[] }) => Math.max(...plan.nodes.map((n) => n['Actual Rows'] * n['Actual Loops']));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 4 });
  await runMigrations(db, HOOKS_SCHEMA, migrations);
  await insertHook(db, {
    id: 'hk_plan', fk_model_id: 'tbl_plan', base_id: 'b_plan', title: 'plan', description: null, event: 'after', operation: ['insert'],
    notification: { type: 'URL', payload: { method: 'POST', path: 'http://127.0.0.1:1/x' } }, active: true, async: true, retries: 5,
    retry_interval: 100, timeout: 5000, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: 'v3.test.not.a.secret',
  } as never);
  const row = (n: number) => ({ id: randomUUID(), hook_id: 'hk_plan', event_id: `ev_${n}`, event: 'after', operation: 'insert', payload: { n, text: 'x'.repeat(200) }, user: null, trace_context: null });
  // Retries scheduled for later come first in seq order: a claim must not walk them.
  const retries = Array.from({ length: WAITING_RETRIES }, (_, n) => row(n));
  for (let i = 0; i < retries.length; i += 1000) await insertDeliveries(db, retries.slice(i, i + 1000));
  await db.withSchema(HOOKS_SCHEMA).table('deliveries').update({ attempt: 1, next_attempt_at: db.raw("now() + interval '1 hour'") });
  const pending = Array.from({ length: BACKLOG }, (_, n) => row(WAITING_RETRIES + n));
  for (let i = 0; i < pending.length; i += 1000) await insertDeliveries(db, pending.slice(i, i + 1000));
  await db.raw('ANALYZE ??.deliveries', [HOOKS_SCHEMA]);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('delivery claims under a backlog', () => {
  it.each([1, 32])('a claim of %i reads at most a few hundred rows in any plan node and compiles nothing', async (limit) => {
    let claimed: Array<{ seq?: string | number; attempt: number }> = [];
    const plan = await explainOf(async (trx) => { claimed = await claimDue(trx, limit, claimer); }, 'FOR UPDATE OF d SKIP LOCKED');
    // The oldest first attempts, in order (the retries waiting for later are not due).
    expect(claimed).toHaveLength(limit);
    expect(claimed.every((d) => d.attempt === 1)).toBe(true);
    const seqs = claimed.map((d) => Number(d.seq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs[0]).toBe(WAITING_RETRIES + 1);
    expect(plan.jit).toBe(false);
    expect(mostRowsOfANode(plan)).toBeLessThanOrEqual(4 * limit + 64);
  });

  it('the ingestion\'s order check stops at the first unfinished first attempt of each hook', async () => {
    const planned = [0, 1, 2].map((n) => ({
      id: randomUUID(), hook_id: 'hk_plan', event_id: `ingest_${n}`, event: 'after', operation: 'insert', payload: { n }, user: null,
      trace_context: null, handOff: true, timeout: 5000,
    }));
    let inserted: Array<{ status: string }> = [];
    const plan = await explainOf(async (trx) => {
      inserted = (await ingestDeliveries(trx, 'plan-consumer', planned.map((p) => p.event_id), planned, claimer.workerId)).inserted;
    }, 'processed_events');
    // A backlog of first attempts waits: no hand-off past it.
    expect(inserted.map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
    expect(plan.jit).toBe(false);
    expect(mostRowsOfANode(plan)).toBeLessThanOrEqual(64);
  });
});
