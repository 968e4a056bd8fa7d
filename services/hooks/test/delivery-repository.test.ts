import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createKnex, runMigrations } from '@tabula/db';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { migrations } from '../migrations';
import { insertHook } from '../src/repositories/hook.repository';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { HookLogModel } from '../src/repositories/hook-log.repository';
import {
  DeliveryModel, claimDue, completeAttempts, deliveriesOfEvent, ingestDeliveries, insertDeliveries, pruneDeliveries, releaseClaims,
  type NewDelivery,
} from '../src/repositories/delivery.repository';

/**
 * The delivery repository's statements on a real PostgreSQL, each asserted on
 * the rows it leaves: which deliveries a claim takes (due, expired locks;
 * never future or locked ones), the lock it sets, what a release and a prune
 * touch, the event-id dedupe of an ingestion, and a completion's log rows and
 * states.
 */
let database: TestDatabase;
let db: Knex;
let seq = 0;
/** The claiming process (its worker id; another one counts as dead after 15 s without a heartbeat). */
const claimer = { workerId: 'worker-under-test', deadAfterMs: 15_000 };

async function hook(timeout = 5000): Promise<string> {
  const id = `hk_repo_${seq++}`;
  await insertHook(db, {
    id, fk_model_id: 'tbl_repo', base_id: 'b_repo', title: id, description: null, event: 'after', operation: ['insert'],
    notification: { type: 'URL', payload: { method: 'POST', path: 'http://127.0.0.1:1/x' } }, active: true, async: true, retries: 0,
    retry_interval: 100, timeout, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: 'v3.test.not.a.secret',
  } as never);
  return id;
}

function delivery(hookId: string, extra: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: randomUUID(), hook_id: hookId, event_id: `ev_${seq++}`, event: 'after', operation: 'insert', payload: { n: seq },
    user: { id: 'u1' }, trace_context: null, ...extra,
  };
}

const row = async (id: string) => (await DeliveryModel.query(db).findById(id))!;
const setRow = (id: string, patch: Record<string, unknown>) => db.withSchema(HOOKS_SCHEMA).table('deliveries').where({ id }).update(patch);
/** How many statements `work` sends (an empty input must cost no round trip). */
async function statementsOf(work: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const count = () => { n += 1; };
  db.on('query', count);
  try { await work(); } finally { db.off('query', count); }
  return n;
}
const secondsFromNow = async (at: Date | null) => (at === null ? null : (at.getTime() - (await db.raw('select now() as now')).rows[0].now.getTime()) / 1000);

beforeAll(async () => {
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 4 });
  await runMigrations(db, HOOKS_SCHEMA, migrations);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('delivery repository', () => {
  it('insertDeliveries stores due pending rows (user and trace context as given, null when absent); an empty list writes nothing', async () => {
    const h = await hook();
    const a = delivery(h, { trace_context: { traceparent: 't' } });
    const b = delivery(h, { user: null });
    const empty = delivery(h, { payload: null });
    const list = delivery(h, { payload: [1, { two: 2 }] });
    expect(await statementsOf(() => insertDeliveries(db, []))).toBe(0);
    await insertDeliveries(db, [a, b, empty, list]);
    const [ra, rb] = [await row(a.id), await row(b.id)];
    // a null payload is the JSON null (the column is NOT NULL); a list stays a JSON list
    expect((await row(empty.id)).payload).toBeNull();
    expect((await db.withSchema(HOOKS_SCHEMA).table('deliveries').where({ id: empty.id }).select(db.raw('jsonb_typeof(payload) as t')))[0].t).toBe('null');
    expect((await row(list.id)).payload).toEqual([1, { two: 2 }]);
    expect([ra.status, ra.attempt, ra.user, ra.trace_context, ra.payload]).toEqual(['pending', 0, { id: 'u1' }, { traceparent: 't' }, a.payload]);
    expect([rb.user, rb.trace_context]).toEqual([null, null]);
    expect(await secondsFromNow(ra.next_attempt_at)).toBeLessThanOrEqual(0);
  });

  it('claimDue takes due pending rows and expired locks, never future or locked ones; attempt + 1, locked for the hook timeout + 30 s; ids and limit narrow it', async () => {
    const h = await hook(4000);
    const due = delivery(h);
    const future = delivery(h);
    const expired = delivery(h);
    const locked = delivery(h);
    const done = delivery(h);
    await insertDeliveries(db, [due, future, expired, locked, done]);
    await setRow(future.id, { next_attempt_at: db.raw("now() + interval '1 hour'") });
    await setRow(expired.id, { status: 'delivering', attempt: 2, locked_until: db.raw("now() - interval '1 second'") });
    await setRow(locked.id, { status: 'delivering', attempt: 1, locked_until: db.raw("now() + interval '1 hour'") });
    await setRow(done.id, { status: 'succeeded' });
    const mine = [due, future, expired, locked, done].map((d) => d.id);

    expect(await claimDue(db, 10, claimer, [future.id, locked.id, done.id])).toEqual([]);
    const one = await claimDue(db, 1, claimer, mine);
    expect(one).toHaveLength(1);
    const rest = await claimDue(db, 10, claimer, mine);
    const claimed = [...one, ...rest];
    expect(claimed.map((d) => d.id).sort()).toEqual([due.id, expired.id].sort());
    for (const d of claimed) {
      const stored = await row(d.id);
      expect(stored.status).toBe('delivering');
      expect(stored.attempt).toBe(d.id === due.id ? 1 : 3);
      // the lock and updated_at come from the same statement's now(): exactly the hook's 4 s + 30 s apart
      expect(stored.locked_until!.getTime() - stored.updated_at!.getTime()).toBe(34_000);
    }
    expect((await row(future.id)).status).toBe('pending');
    expect((await row(locked.id)).attempt).toBe(1);
    expect(await claimDue(db, 10, claimer, mine)).toEqual([]);
  });

  it('releaseClaims gives back only claimed rows: pending, attempt restored (never below 0), unlocked', async () => {
    const h = await hook();
    const a = delivery(h);
    const b = delivery(h);
    const c = delivery(h);
    await insertDeliveries(db, [a, b, c]);
    await setRow(a.id, { status: 'delivering', attempt: 2, locked_until: db.raw("now() + interval '1 hour'") });
    await setRow(b.id, { status: 'delivering', attempt: 0, locked_until: db.raw("now() + interval '1 hour'") });
    await setRow(c.id, { status: 'succeeded', attempt: 1 });
    expect(await statementsOf(() => releaseClaims(db, []))).toBe(0);
    await releaseClaims(db, [a.id, b.id, c.id]);
    expect([await row(a.id), await row(b.id), await row(c.id)].map((d) => [d.status, d.attempt, d.locked_until]))
      .toEqual([['pending', 1, null], ['pending', 0, null], ['succeeded', 1, null]]);
  });

  it('pruneDeliveries forgets finished rows older than the cutoff, and nothing else', async () => {
    const h = await hook();
    const rows = ['succeeded', 'failed', 'cancelled', 'pending', 'delivering'].map(() => delivery(h));
    const recent = delivery(h);
    await insertDeliveries(db, [...rows, recent]);
    for (const [i, status] of ['succeeded', 'failed', 'cancelled', 'pending', 'delivering'].entries()) {
      await setRow(rows[i].id, { status, updated_at: db.raw("now() - interval '2 days'") });
    }
    await setRow(recent.id, { status: 'succeeded' });
    const cutoff = new Date(Date.now() - 24 * 3600_000);
    expect(await pruneDeliveries(db, cutoff)).toBe(3);
    const left = await DeliveryModel.query(db).whereIn('id', [...rows, recent].map((d) => d.id));
    expect(left.map((d) => d.status).sort()).toEqual(['delivering', 'pending', 'succeeded']);
  });

  it('deliveriesOfEvent answers one event\'s deliveries for the given hooks only; no hooks, no query', async () => {
    const [h1, h2] = [await hook(), await hook()];
    const eventId = `ev_shared_${seq++}`;
    const a = delivery(h1, { event_id: eventId });
    const b = delivery(h2, { event_id: eventId });
    await insertDeliveries(db, [a, b, delivery(h1)]);
    expect((await deliveriesOfEvent(db, eventId, [h1])).map((d) => d.id)).toEqual([a.id]);
    expect((await deliveriesOfEvent(db, eventId, [h1, h2])).map((d) => d.id).sort()).toEqual([a.id, b.id].sort());
    expect(await statementsOf(async () => expect(await deliveriesOfEvent(db, eventId, [])).toEqual([]))).toBe(0);
  });

  it('ingestDeliveries: an event id seen before inserts nothing; hand-off rows are stored claimed (attempt 1, locked), the others pending', async () => {
    const h = await hook(2000);
    const fresh = `ev_fresh_${seq++}`;
    const plan = (eventId: string, handOff: boolean) => ({ ...delivery(h, { event_id: eventId }), handOff, timeout: 2000 });
    const first = [plan(fresh, true), plan(fresh, false)];
    const out = await ingestDeliveries(db, 'hooks', [fresh], first, claimer.workerId);
    expect([...out.freshEventIds]).toEqual([fresh]);
    const byId = new Map(out.inserted.map((d) => [d.id, d]));
    expect([byId.get(first[0].id)?.status, byId.get(first[0].id)?.attempt, byId.get(first[1].id)?.status, byId.get(first[1].id)?.attempt])
      .toEqual(['delivering', 1, 'pending', 0]);
    // locked from the statement's now() (the row's created_at) for the hook's 2 s + 30 s
    expect(byId.get(first[0].id)!.locked_until!.getTime() - (await row(first[0].id)).created_at!.getTime()).toBe(32_000);
    expect(byId.get(first[1].id)?.locked_until).toBeNull();
    expect(byId.get(first[1].id)?.next_attempt_at).toBeInstanceOf(Date);
    const again = await ingestDeliveries(db, 'hooks', [fresh], [plan(fresh, false)], claimer.workerId);
    expect([[...again.freshEventIds], again.inserted]).toEqual([[], []]);
    // another consumer name keeps its own record of processed ids
    expect([...(await ingestDeliveries(db, 'other', [fresh], [], claimer.workerId)).freshEventIds]).toEqual([fresh]);
    expect(await DeliveryModel.query(db).where({ event_id: fresh })).toHaveLength(2);
  });

  it('completeAttempts writes each log row (not for a hook deleted meanwhile) and moves each delivery to its next state', async () => {
    const [h, gone] = [await hook(), await hook()];
    const ok = delivery(h);
    const retry = delivery(h);
    const cancelled = delivery(h);
    const orphan = delivery(gone);
    await insertDeliveries(db, [ok, retry, cancelled, orphan]);
    for (const d of [ok, retry, cancelled, orphan]) await setRow(d.id, { status: 'delivering', attempt: 1, locked_until: db.raw("now() + interval '1 hour'") });
    const before = (await row(ok.id)).next_attempt_at;
    const next = new Date(Date.now() + 3600_000);
    const log = (hookId: string, deliveryId: string) => ({
      id: `hl_${seq++}`, fk_hook_id: hookId, base_id: 'b_repo', fk_model_id: 'tbl_repo', delivery_id: deliveryId, attempt: 1, type: 'URL',
      event: 'after', operation: 'insert', payload: { x: 1 }, response: { status: 200 }, error_message: null, execution_time: 12, triggered_by: 'u1', test_call: false,
    });
    await db.withSchema(HOOKS_SCHEMA).table('hooks').where({ id: gone }).delete().catch(() => undefined);
    expect(await statementsOf(() => completeAttempts(db, []))).toBe(0);
    await completeAttempts(db, [
      { deliveryId: ok.id, status: 'succeeded', log: log(h, ok.id) },
      { deliveryId: retry.id, status: 'pending', nextAttemptAt: next, log: log(h, retry.id) },
      { deliveryId: cancelled.id, status: 'cancelled' },
      { deliveryId: orphan.id, status: 'succeeded', log: log(gone, orphan.id) },
    ]);
    const [rOk, rRetry, rCancelled] = [await row(ok.id), await row(retry.id), await row(cancelled.id)];
    expect([rOk.status, rOk.locked_until, rOk.next_attempt_at.getTime()]).toEqual(['succeeded', null, before.getTime()]);
    expect([rRetry.status, rRetry.locked_until, rRetry.next_attempt_at.getTime()]).toEqual(['pending', null, next.getTime()]);
    expect([rCancelled.status, rCancelled.locked_until]).toEqual(['cancelled', null]);
    const logs = await HookLogModel.query(db).whereIn('delivery_id', [ok.id, retry.id, cancelled.id, orphan.id]);
    expect(logs.map((l) => l.delivery_id).sort()).toEqual([ok.id, retry.id].sort());
    expect(logs.find((l) => l.delivery_id === ok.id)).toMatchObject({ fk_hook_id: h, execution_time: 12, response: { status: 200 }, attempt: 1, triggered_by: 'u1' });
  });
});
