import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { migrations } from '../migrations';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { HookModel, insertHook } from '../src/repositories/hook.repository';
import {
  claimDue, completeAttempts, DeliveryModel, forgetWorkers, heartbeat, ingestDeliveries, releaseClaims, type Claimer, type DeliveryRow, type PlannedDelivery,
} from '../src/repositories/delivery.repository';

/**
 * A hook's first attempts start in the order they were scheduled, whichever
 * replica ingested or claims them (issue 30, fault run 4: a consumer that
 * joins mid-stream must not overtake deliveries the old partition owner still
 * holds). Two "processes" here are two worker ids on one database, driving the
 * repository the way the records consumer (ingest with hand-off) and the
 * delivery worker (claim) do.
 */
let database: TestDatabase;
let db: Knex;
let hookSeq = 0;
let eventSeq = 0;

const A: Claimer = { workerId: 'worker-a', deadAfterMs: 15_000 };
const B: Claimer = { workerId: 'worker-b', deadAfterMs: 15_000 };

async function addHook(): Promise<string> {
  const id = `hk_order_${hookSeq++}`;
  await insertHook(db, {
    id, fk_model_id: 'tbl_order', base_id: 'b_order', title: id, description: null, event: 'after', operation: ['insert'],
    notification: { type: 'URL', payload: { method: 'POST', path: 'http://127.0.0.1:9/none' } }, active: true, async: true, retries: 0,
    retry_interval: 100, timeout: 5000, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: 'unused-in-these-tests',
  });
  return id;
}

function planned(hookId: string, handOff: boolean): PlannedDelivery {
  const eventId = `evt-order-${eventSeq++}`;
  return {
    id: randomUUID(), hook_id: hookId, event_id: eventId, event: 'after', operation: 'insert', payload: { n: eventSeq }, user: null,
    trace_context: null, handOff, timeout: 5000,
  };
}

/** Ingests deliveries as `worker` would (each with its own event id), handing off when asked; returns them in schedule order. */
async function ingest(worker: Claimer, deliveries: PlannedDelivery[]): Promise<DeliveryRow[]> {
  await ingestDeliveries(db, 'hooks', deliveries.map((d) => d.event_id), deliveries, worker.workerId);
  return rows(deliveries.map((d) => d.id));
}

async function rows(ids: string[]): Promise<DeliveryRow[]> {
  const found = await DeliveryModel.query(db).whereIn('id', ids);
  return ids.map((id) => found.find((r) => r.id === id)!);
}

const succeeded = (list: DeliveryRow[]) => completeAttempts(db, list.map((d) => ({ deliveryId: d.id, status: 'succeeded' as const })));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 4 });
  await runMigrations(db, HOOKS_SCHEMA, migrations);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});
beforeEach(async () => {
  await HookModel.query(db).delete();
  await db.withSchema(HOOKS_SCHEMA).table('workers').delete();
});

describe('order of a hook\'s first attempts across processes', () => {
  it('a delivery ingested by another process while the first holds earlier ones is not handed off, and is claimed only after they finish', async () => {
    const hook = await addHook();
    const held = await ingest(A, [planned(hook, true), planned(hook, true), planned(hook, true)]);
    expect(held.map((d) => [d.status, d.claimed_by])).toEqual(Array(3).fill(['delivering', A.workerId]));

    // the partition moved to B: its next event of the same hook must wait for A's three
    const [next] = await ingest(B, [planned(hook, true)]);
    expect([next.status, next.attempt, next.claimed_by]).toEqual(['pending', 0, null]);
    expect(await claimDue(db, 10, B)).toEqual([]);

    await succeeded(held.slice(0, 2));
    expect(await claimDue(db, 10, B)).toEqual([]);
    await succeeded(held.slice(2));
    const claimed = await claimDue(db, 10, B);
    expect(claimed.map((d) => [d.id, d.attempt, d.claimed_by])).toEqual([[next.id, 1, B.workerId]]);
  });

  it('another hook is not held up by the first one\'s wait', async () => {
    const slow = await addHook();
    const other = await addHook();
    await ingest(A, [planned(slow, true)]);
    const [waiting] = await ingest(B, [planned(slow, true)]);
    const [free] = await ingest(B, [planned(other, false)]);
    expect((await claimDue(db, 10, B)).map((d) => d.id)).toEqual([free.id]);
    expect((await rows([waiting.id]))[0].status).toBe('pending');
  });

  it('a process holding earlier deliveries of the hook itself keeps handing off (its sender starts them in order)', async () => {
    const hook = await addHook();
    await ingest(A, [planned(hook, true)]);
    const [second] = await ingest(A, [planned(hook, true)]);
    expect([second.status, second.claimed_by]).toEqual(['delivering', A.workerId]);
  });

  it('pending deliveries (no room for a hand-off) hold later hand-offs back, and the poll claims them in schedule order', async () => {
    const hook = await addHook();
    const queued = await ingest(A, [planned(hook, false), planned(hook, false), planned(hook, false)]);
    const [later] = await ingest(A, [planned(hook, true)]);
    expect(later.status).toBe('pending');
    const first = await claimDue(db, 2, B);
    expect(first.map((d) => d.id)).toEqual(queued.slice(0, 2).map((d) => d.id));
    // the third and the later one wait for B's two in flight (A's poll must not overtake them)
    expect(await claimDue(db, 10, A)).toEqual([]);
    await succeeded(first);
    expect((await claimDue(db, 10, A)).map((d) => d.id)).toEqual([queued[2].id, later.id]);
  });

  it('within one batch, the hook\'s deliveries after one that could not be handed off are not handed off either', async () => {
    const hook = await addHook();
    const batch = await ingest(A, [planned(hook, true), planned(hook, false), planned(hook, false)]);
    expect(batch.map((d) => d.status)).toEqual(['delivering', 'pending', 'pending']);
    expect(Number(batch[0].seq) < Number(batch[1].seq) && Number(batch[1].seq) < Number(batch[2].seq)).toBe(true);
  });

  it('a dead process\'s claims (heartbeat older than the TTL) are taken over at once, in order; a live one\'s are waited for', async () => {
    const hook = await addHook();
    await heartbeat(db, A.workerId);
    const held = await ingest(A, [planned(hook, true), planned(hook, true)]);
    const [next] = await ingest(B, [planned(hook, true)]);
    expect(await claimDue(db, 10, B)).toEqual([]);

    await db.raw(`UPDATE ??.workers SET seen_at = now() - interval '1 minute' WHERE id = ?`, [HOOKS_SCHEMA, A.workerId]);
    const taken = await claimDue(db, 10, B);
    // A's two (a second attempt each: they may have been sent) then the waiting one, all now B's
    expect(taken.map((d) => [d.id, d.attempt, d.claimed_by])).toEqual([
      [held[0].id, 2, B.workerId], [held[1].id, 2, B.workerId], [next.id, 1, B.workerId],
    ]);
  });

  it('a graceful stop gives its claims back (no owner) and removes its heartbeat', async () => {
    const hook = await addHook();
    await heartbeat(db, A.workerId);
    const held = await ingest(A, [planned(hook, true)]);
    await releaseClaims(db, held.map((d) => d.id));
    await forgetWorkers(db, { workerId: A.workerId });
    const [back] = await rows(held.map((d) => d.id));
    expect([back.status, back.attempt, back.claimed_by]).toEqual(['pending', 0, null]);
    expect(Number((await db.withSchema(HOOKS_SCHEMA).table('workers').count({ n: '*' }))[0].n)).toBe(0);
    expect((await claimDue(db, 10, B)).map((d) => d.id)).toEqual([back.id]);
  });
});
