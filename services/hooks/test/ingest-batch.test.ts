import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { RecordOperation, RecordsChangedSchema, encodeEvent, topics } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import { Registry } from 'prom-client';
import { createKnex, runMigrations } from '@tabula/db';
import { createSafeAgent } from '@tabula/http';
import { createServiceMetrics } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { Sink } from '../../../e2e/hooks-e2e.helpers';
import { migrations } from '../migrations';
import type { HooksConfig } from '../src/config';
import type { HooksPorts } from '../src/ports';
import { HookCache } from '../src/cache/hook-cache';
import { HookChangeListener, announceHookChange } from '../src/cache/hook-changes';
import { Completions } from '../src/delivery/completions';
import { DeliveryWorker } from '../src/delivery/delivery-worker';
import { ingestEvents } from '../src/domain/ingest-event';
import { dispatchSync } from '../src/domain/dispatch-sync';
import { processDelivery } from '../src/delivery/process-delivery';
import { decodeRecordsEvent, type RecordsEvent } from '../src/domain/records-event';
import { recordsConsumer } from '../src/consumers/records.consumer';
import { AtRestRing } from '@tabula/runtime';
import { stageMetrics } from '../src/delivery/stage-metrics';
import { Wake } from '../src/adapters/wake';
import { HookModel, insertHook, updateHook, type HookRow } from '../src/repositories/hook.repository';
import { HOOKS_SCHEMA } from '../src/repositories/hooks-db';
import { DeliveryModel, type DeliveryRow } from '../src/repositories/delivery.repository';
import { HookLogModel } from '../src/repositories/hook-log.repository';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const TABLE = 'tbl_ingest';

let database: TestDatabase;
let db: Knex;
const sink = new Sink();
const box = new AtRestRing('tabula-hook-secrets', ['test-ring-key-for-the-ingest-tests-0123456789']);
let hookSeq = 0;

function config(extra: Partial<HooksConfig> = {}): HooksConfig {
  return {
    SVC_ALLOW_LOCAL_HOOKS: true, SVC_HOOK_LOG_RETENTION_DAYS: 30, SVC_HOOKS_POLL_MS: 3_600_000, SVC_HOOKS_CONCURRENCY: 8,
    SVC_HOOKS_HANDOFF_QUEUE: 64, SVC_HOOKS_CONNECTIONS_PER_TARGET: 4, SVC_HOOKS_CACHE_TABLES: 100, SVC_HOOKS_CACHE_TTL_MS: 60_000, SVC_HOOKS_WORKER_TTL_MS: 15_000, ...extra,
  };
}

/** Hooks ports on the test database (no HTTP app, no bus: the tests call the consumer's ingestion directly). */
function ports(extra: Partial<HooksConfig> = {}): HooksPorts {
  const cfg = config(extra);
  return {
    db, config: cfg, workerId: `test-worker-${randomUUID()}`, logger: quiet, box, wake: new Wake(), agent: createSafeAgent(true, { connections: 4 }),
    hookCache: new HookCache(db, { maxTables: cfg.SVC_HOOKS_CACHE_TABLES, ttlMs: cfg.SVC_HOOKS_CACHE_TTL_MS }),
    completions: new Completions(db), stages: stageMetrics(new Registry()), metrics: createServiceMetrics('hooks-test'),
  } as unknown as HooksPorts;
}

async function addHook(path: string, extra: Partial<HookRow> = {}): Promise<HookRow> {
  const id = `hk_test_${hookSeq++}`;
  await insertHook(db, {
    id, fk_model_id: TABLE, base_id: 'b_test', title: path, description: null, event: 'after', operation: ['insert'],
    notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}${path}` } }, active: true, async: true, retries: 0,
    retry_interval: 100, timeout: 5000, version: 'v3', condition: false, trigger_field: false, trigger_fields: [], secret_sealed: box.seal('whsec_test'),
    ...extra,
  });
  return (await HookModel.query(db).where({ id }).first()) as HookRow;
}

let eventSeq = 0;
function event(name: string, id = `evt-${eventSeq++}`): RecordsEvent {
  return { eventId: id, event: 'after', operation: 'insert', baseId: 'b_test', tableId: TABLE, tableTitle: 'Items', rows: [{ Id: eventSeq, Name: name }] };
}

const deliveriesOf = async (hookId: string): Promise<DeliveryRow[]> => DeliveryModel.query(db).where({ hook_id: hookId }).orderBy('created_at');

beforeAll(async () => {
  await sink.start();
  database = await createTestDatabase();
  db = createKnex({ url: database.url, poolMax: 6 });
  await runMigrations(db, HOOKS_SCHEMA, migrations);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
  await sink.stop();
});
beforeEach(async () => {
  await HookModel.query(db).delete();
  await db.withSchema(HOOKS_SCHEMA).table('processed_events').delete();
});

describe('batch ingestion', () => {
  it('ingests a batch in one statement: one delivery per event and hook, a duplicate inside the batch counted once', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    const a = await addHook('/a');
    const b = await addHook('/b');
    const events = [event('x1'), event('x2'), event('x3')];
    const scheduled = await ingestEvents(p, [...events, events[1]]);
    expect(scheduled).toHaveLength(6);
    expect((await deliveriesOf(a.id)).map((d) => d.event_id).sort()).toEqual(events.map((e) => e.eventId).sort());
    expect((await deliveriesOf(b.id))).toHaveLength(3);
    // no worker attached: nothing handed off, everything pending for the poll
    expect((await deliveriesOf(a.id)).every((d) => d.status === 'pending' && d.attempt === 0)).toBe(true);
  });

  it('a redelivered batch (also overlapping, also concurrently) schedules nothing twice and loses nothing', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    const a = await addHook('/redelivered');
    const first = [event('y1'), event('y2'), event('y3')];
    expect(await ingestEvents(p, first)).toHaveLength(3);
    const next = [first[1], first[2], event('y4'), event('y5')];
    const again = await Promise.all([ingestEvents(p, next), ingestEvents(p, next), ingestEvents(p, first)]);
    expect(again.flat().map((d) => d.event_id).sort()).toEqual([next[2].eventId, next[3].eventId].sort());
    const rows = await deliveriesOf(a.id);
    expect(rows.map((d) => d.event_id).sort()).toEqual([...first, next[2], next[3]].map((e) => e.eventId).sort());
  });

  it('a failing batch commits nothing (no event marked processed without its deliveries); its redelivery schedules all', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    const a = await addHook('/atomic');
    const gone = await addHook('/gone');
    await p.hookCache.get(TABLE);
    // the cached hook row is now dangling: its delivery violates the foreign key, so the whole statement fails
    await HookModel.query(db).where({ id: gone.id }).delete();
    const batch = [event('z1'), event('z2')];
    await expect(ingestEvents(p, batch)).rejects.toThrow();
    expect(await deliveriesOf(a.id)).toHaveLength(0);
    expect(await db.withSchema(HOOKS_SCHEMA).table('processed_events').whereIn('event_id', batch.map((e) => e.eventId))).toHaveLength(0);
    await announceHookChange(db, p.hookCache, [TABLE]);
    expect(await ingestEvents(p, batch)).toHaveLength(2);
    expect(await deliveriesOf(a.id)).toHaveLength(2);
  });
});

describe('direct hand-off', () => {
  it('fresh deliveries go to the sender at once (no poll: it runs once an hour here), claimed at insert, one attempt each', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    const worker = new DeliveryWorker(p);
    worker.start();
    try {
      const a = await addHook('/handoff');
      await new Promise((r) => setTimeout(r, 50)); // the start-up poll has run
      const events = Array.from({ length: 20 }, (_, i) => event(`h${i}`));
      await ingestEvents(p, events);
      await sink.waitFor('/handoff', 20, 5000);
      const until = Date.now() + 5000;
      let rows = await deliveriesOf(a.id);
      while (rows.some((d) => d.status !== 'succeeded') && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
        rows = await deliveriesOf(a.id);
      }
      expect(rows.map((d) => [d.status, d.attempt])).toEqual(events.map(() => ['succeeded', 1]));
      expect(new Set(sink.at('/handoff').map((r) => r.headers['webhook-id'])).size).toBe(20);
      const logs = await HookLogModel.query(db).where({ fk_hook_id: a.id });
      expect(logs).toHaveLength(20);
      const claims = await (p.stages.claimLag as unknown as { get(): Promise<{ values: Array<{ labels: Record<string, string>; value: number; metricName?: string }> }> }).get();
      const count = (path: string) => claims.values.find((v) => v.metricName?.endsWith('_count') && v.labels.path === path)?.value ?? 0;
      expect(count('handoff')).toBe(20);
      expect(count('poll')).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('beyond the hand-off room deliveries are stored pending and the poll sends them', async () => {
    // No timer poll during the test: the claims that send the overflow are the ones each finished send triggers.
    const p = ports({ SVC_HOOKS_CONCURRENCY: 1, SVC_HOOKS_HANDOFF_QUEUE: 0, SVC_HOOKS_POLL_MS: 600_000 });
    p.hookCache.setEnabled(true);
    sink.delayMs = 100;
    const worker = new DeliveryWorker(p);
    worker.start();
    try {
      const a = await addHook('/overflow');
      await worker.whenIdle();
      await ingestEvents(p, [event('o1'), event('o2'), event('o3')]);
      const states = (await deliveriesOf(a.id)).map((d) => d.status).sort();
      expect(states).toEqual(['delivering', 'pending', 'pending']);
      await sink.waitFor('/overflow', 3, 5000);
    } finally {
      sink.delayMs = 0;
      await worker.stop();
    }
  });

  it('a graceful stop gives back handed-off deliveries it had not started (pending again, attempt restored)', async () => {
    const p = ports({ SVC_HOOKS_CONCURRENCY: 1, SVC_HOOKS_HANDOFF_QUEUE: 10 });
    p.hookCache.setEnabled(true);
    sink.delayMs = 300;
    const worker = new DeliveryWorker(p);
    worker.start();
    try {
      const a = await addHook('/stop');
      await ingestEvents(p, [event('s1'), event('s2'), event('s3')]);
      await sink.waitFor('/stop', 1, 5000);
      await worker.stop();
      const rows = await deliveriesOf(a.id);
      expect(rows.map((d) => [d.status, d.attempt]).sort()).toEqual([['pending', 0], ['pending', 0], ['succeeded', 1]]);
    } finally {
      sink.delayMs = 0;
    }
  });
});

describe('records consumer', () => {
  const message = (payload: Uint8Array, key = TABLE): EventMessage => ({
    id: randomUUID(), topic: topics.records, key, type: 'records.after.insert', version: 1, payload, headers: {}, timestamp: new Date().toISOString(), attempt: 1,
  });

  it('does not decode the event of a table without an active hook; decodes and schedules for one with a hook', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    // Not a RecordsChanged message: decoding it throws.
    const garbage = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(() => decodeRecordsEvent(garbage, 'x')).toThrow();
    await expect(recordsConsumer.handle(p, message(garbage))).resolves.toBeUndefined();
    expect(await DeliveryModel.query(db)).toEqual([]);

    const hook = await addHook('/consumer');
    p.hookCache.invalidate([TABLE]); // what a hook write through the API does
    await expect(recordsConsumer.handle(p, message(garbage))).rejects.toThrow();
    const payload = encodeEvent(RecordsChangedSchema, {
      eventId: randomUUID(), type: 'records.after.insert', operation: RecordOperation.INSERT, baseId: 'b_test', tableId: TABLE, tableTitle: 'Items',
      rowsJson: JSON.stringify([{ Id: 1, Name: 'n' }]),
    });
    await recordsConsumer.handle(p, message(payload));
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
  });
});

describe('hook cache', () => {
  it('another process\'s change reaches this cache through NOTIFY; without a listener the cache is bypassed', async () => {
    const mine = ports();
    const theirs = ports();
    const listener = new HookChangeListener(db, mine.hookCache, quiet);
    await listener.start();
    try {
      const h = await addHook('/notify');
      expect((await mine.hookCache.get(TABLE)).hooks.map((x) => x.title)).toEqual(['/notify']);
      const hitsBefore = mine.hookCache.hits;
      expect((await mine.hookCache.get(TABLE)).hooks).toHaveLength(1);
      expect(mine.hookCache.hits).toBe(hitsBefore + 1);
      // the other process disables the hook and announces it
      await updateHook(db, h.id, { active: false });
      await announceHookChange(db, theirs.hookCache, [TABLE]);
      const until = Date.now() + 5000;
      while ((await mine.hookCache.get(TABLE)).hooks.length && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect((await mine.hookCache.get(TABLE)).hooks).toHaveLength(0);
    } finally {
      await listener.stop();
    }
    // stopped listener: every read goes to PostgreSQL
    await updateHook(db, (await HookModel.query(db).first())!.id, { active: true });
    expect((await mine.hookCache.get(TABLE)).hooks).toHaveLength(1);
    expect(mine.hookCache.size).toBe(0);
  });

  it('a load that raced with an invalidation is not stored; the cache is bounded', async () => {
    const p = ports({ SVC_HOOKS_CACHE_TABLES: 2 });
    p.hookCache.setEnabled(true);
    await addHook('/race');
    const loading = p.hookCache.get(TABLE);
    p.hookCache.invalidate([TABLE]);
    await loading;
    expect(p.hookCache.size).toBe(0);
    await p.hookCache.get(TABLE);
    await p.hookCache.get('t2');
    await p.hookCache.get('t3');
    expect(p.hookCache.size).toBe(2);
  });
});

describe('dispatch-sync (async: false hooks, delivered before data answers)', () => {
  const input = (eventId: string) => ({
    eventId, type: 'records.after.insert', operation: 'insert' as const, baseId: 'b_test', tableId: TABLE, tableTitle: 'Items', rows: [{ Id: 1, Name: 'sync' }],
  });

  it("inserts a fresh event's sync deliveries claimed by the call itself: a poll woken meanwhile cannot take them, and the target is called before it returns", async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    const sync = await addHook('/sync-fresh', { async: false });
    await addHook('/async-fresh');
    // The poll that the async delivery's pending row wakes: it takes, under a lock held a while, every delivery it can claim.
    const polled: Promise<DeliveryRow[]>[] = [];
    p.wake.listen(() => polled.push(db.transaction(async (trx) => {
      const rows = await trx(DeliveryModel.tableName).where({ status: 'pending' }).forUpdate().skipLocked();
      await new Promise((r) => setTimeout(r, 300));
      if (rows.length) await trx(DeliveryModel.tableName).whereIn('id', rows.map((d) => d.id)).update({ status: 'delivering', attempt: 1 });
      return rows as DeliveryRow[];
    })));
    const answer = await dispatchSync(p, input(`sync-${randomUUID()}`));
    expect(sink.at('/sync-fresh')).toHaveLength(1);
    expect(answer).toMatchObject({ sync_hooks: true, deliveries: [{ hook_id: sync.id, status: 'succeeded', attempt: 1 }] });
    expect(polled).toHaveLength(1);
    expect((await Promise.all(polled)).flat().map((d) => d.hook_id)).not.toContain(sync.id);
  });

  it('when the bus copy came first and a worker holds its sync delivery while claiming it, waits for that attempt instead of answering before it', async () => {
    const p = ports();
    p.hookCache.setEnabled(true);
    await addHook('/sync-bus-first', { async: false });
    const evt = input(`sync-${randomUUID()}`);
    // The bus copy: no worker has room here, so its delivery is stored pending, untaken.
    await ingestEvents(p, [{ ...evt, event: 'after', operation: 'insert' }]);
    let locked!: () => void;
    const lockHeld = new Promise<void>((r) => { locked = r; });
    const worker = (async () => {
      const claimed = await db.transaction(async (trx) => {
        const rows = await trx(DeliveryModel.tableName).where({ event_id: evt.eventId }).forUpdate();
        locked();
        await new Promise((r) => setTimeout(r, 300));
        return trx(DeliveryModel.tableName).whereIn('id', rows.map((d) => d.id)).update({ status: 'delivering', attempt: 1 }).returning('*');
      });
      await Promise.all(claimed.map((d: DeliveryRow) => processDelivery(p, d)));
    })();
    await lockHeld;
    const answer = await dispatchSync(p, evt);
    expect(sink.at('/sync-bus-first')).toHaveLength(1);
    expect(answer.deliveries).toEqual([expect.objectContaining({ status: 'succeeded', attempt: 1 })]);
    await worker;
    expect(sink.at('/sync-bus-first')).toHaveLength(1);
  });
});
