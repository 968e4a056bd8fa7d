import { randomBytes } from 'node:crypto';
import knex, { type Knex } from 'knex';
import { createClient } from 'redis';
import { describeWithBackend, startTestCluster, type TestCluster } from '@tabula/testing';
import { call, setupTable } from '../hooks-e2e.helpers';
import { DeliverySink } from './delivery-sink';
import { faultRow, formatTable, tableState, type FaultRow } from './fault-report';
import { startPrivatePostgres, startPrivateRedis, type PrivateBackend } from './private-backends';
import { WriteLoad } from './write-load';

/**
 * Fault suite (issue 17), cluster mode: a write-heavy load (single inserts,
 * 5-row bulk inserts, updates; a webhook on every insert and update) runs
 * while each service process in turn is SIGKILLed and restarted, then the
 * cluster's PostgreSQL (immediate shutdown: crash recovery) and Redis
 * (SIGKILL) are restarted. Both are private instances of this suite, never
 * the machine's. Afterwards, per fault:
 * - every acknowledged (2xx) write is in the table;
 * - every acknowledged write's record event reached the webhook sink at least
 *   once (duplicates are counted, not failed: delivery is at least once);
 * - the faulted component answers again within RECOVERY_BOUND_MS of its restart;
 * and once: the list's totalRows equals the table's row count, and no write
 * was applied twice (Names are unique).
 * FAULT_LONG=1 runs longer phases with more load (not CI).
 */
const long = process.env.FAULT_LONG === '1' || process.env.FAULT_LONG === 'true';
const timing = long ? { warmMs: 5000, downMs: 3000, afterMs: 5000, workers: 8 } : { warmMs: 1200, downMs: 800, afterMs: 1000, workers: 4 };
/**
 * A restarted service (or backend) answers within this bound, counted from the
 * restart (process start, PostgreSQL crash recovery, Redis AOF load) to the
 * first successful request that needs it. Measured 0.3–5 s on a busy 2-core
 * machine, up to 13 s when eight engineers' suites ran on it.
 */
const RECOVERY_BOUND_MS = 20_000;
/**
 * Every acknowledged write's event reaches the sink within this bound after
 * the last fault. It covers the two take-over timeouts a SIGKILL of hooks can
 * start: a delivery claimed by the dead process is claimed again when its lock
 * (hook timeout + 30 s) expires, and a stream entry it had read but not
 * acknowledged is taken over after EVENT claim idle (30 s).
 */
const DRAIN_BOUND_MS = 75_000;
const services = ['auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks'];
const prefix = `f${randomBytes(5).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeWithBackend('redis', 'fault suite: kill -9 each service, restart PostgreSQL and Redis under write load (cluster mode)', () => {
  let pg: PrivateBackend;
  let redis: PrivateBackend;
  let cluster: TestCluster;
  let db: Knex;
  let load: WriteLoad;
  let t: Awaited<ReturnType<typeof setupTable>>;
  const sink = new DeliverySink();
  const recovery = new Map<string, number>();

  const ok = async (p: string) => (await call(cluster.gatewayUrl, t.token, 'GET', p).catch(() => ({ status: 0 }))).status === 200;
  let probeSeq = 0;
  /** FAULT_DEBUG=1: where the event path stands (outbox, stream groups, deliveries, connections). */
  const debugDump = async (name: string) => {
    const unsent = await db.withSchema('data').table('outbox').whereNull('published_at').count({ n: '*' }).first();
    const client = createClient({ url: redis.url });
    await client.connect();
    const info = await client.sendCommand(['XINFO', 'GROUPS', `${prefix}.records`]);
    const len = await client.sendCommand(['XLEN', `${prefix}.records`]);
    const pending = await client.sendCommand(['XPENDING', `${prefix}.records`, `${prefix}.hooks`]);
    const consumers = await client.sendCommand(['XINFO', 'CONSUMERS', `${prefix}.records`, `${prefix}.hooks`]);
    await client.close();
    const byStatus = await db.withSchema('hooks').table('deliveries').select('status').count({ n: '*' }).groupBy('status');
    const mine = await db.withSchema('hooks').table('deliveries').whereRaw("payload::text like ?", [`%${name}%`]).select('status', 'attempt', 'locked_until', 'next_attempt_at');
    const act = await db.raw("select application_name as app, state, count(*)::int as n from pg_stat_activity where datname = current_database() group by 1, 2 order by 1");
    process.stdout.write(`debug: activity ${JSON.stringify(act.rows)}\n`);
    process.stdout.write(`debug: deliveries ${JSON.stringify(byStatus)} probe ${JSON.stringify(mine)} now ${new Date().toISOString()}\n`);
    process.stdout.write(`debug: unsent ${unsent?.n} xlen ${len} groups ${JSON.stringify(info)} pending ${JSON.stringify(pending)} consumers ${JSON.stringify(consumers)}\n`);
  };
  /**
   * The event path works again: a fresh insert is acknowledged and its event crosses Redis to the hooks
   * service (its delivery is scheduled). Its webhook call is the drain's to check below: a hook's
   * deliveries start in the order they were scheduled, so after an outage it may wait behind the backlog
   * the outage left, which says nothing about whether Redis answers.
   */
  const eventsFlow = async () => {
    const name = `probe-${probeSeq++}`;
    const res = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: name, Qty: 0 }).catch(() => ({ status: 0 }));
    if (process.env.FAULT_DEBUG) process.stdout.write(`probe ${name}: ${res.status} at ${new Date().toISOString()}\n`);
    if (res.status !== 200) return false;
    for (const until = Date.now() + 5000; Date.now() < until; await sleep(100)) {
      const scheduled = await db.withSchema('hooks').table('deliveries').whereRaw('payload::text like ?', [`%"${name}"%`]).first('id').catch(() => undefined);
      if (scheduled) return true;
    }
    if (process.env.FAULT_DEBUG) await debugDump(name);
    return false;
  };
  /** Per fault: a request that needs the faulted component. */
  const probes: Record<string, () => Promise<boolean>> = {
    auth: () => ok('/api/v1/auth/user/me'),
    meta: () => ok('/api/v1/db/meta/projects/'),
    data: () => ok(`/api/v1/db/data/noco/${t.baseId}/${t.tableId}?limit=1`),
    comments: () => ok(`/api/v1/db/meta/comments/count?fk_model_id=${t.tableId}&ids=1`),
    storage: () => ok(`/api/v1/db/storage/usage/${t.baseId}`),
    integrations: () => ok('/api/v2/meta/integrations'),
    hooks: () => ok(`/api/v1/db/meta/tables/${t.tableId}/hooks`),
    gateway: () => ok('/api/v1/auth/user/me'),
    postgres: () => ok(`/api/v1/db/data/noco/${t.baseId}/${t.tableId}?limit=1`),
    redis: eventsFlow,
  };
  const allFaults: Array<{ name: string; inject(): Promise<void>; recover(): Promise<void> }> = [
    // hooks first: the take-over timeouts its crash can start then run while the other faults do.
    ...['hooks', 'data', 'meta', 'auth', 'gateway', 'comments', 'storage', 'integrations'].map((name) => ({
      name, inject: () => cluster.kill(name), recover: () => cluster.restart(name),
    })),
    { name: 'postgres', inject: () => pg.crash(), recover: () => pg.start() },
    { name: 'redis', inject: () => redis.crash(), recover: () => redis.start() },
  ];
  /** FAULTS=redis,data runs only those (when chasing one). */
  const only = process.env.FAULTS?.split(',').map((s) => s.trim()).filter(Boolean);
  const faults = only?.length ? allFaults.filter((f) => only.includes(f.name)) : allFaults;

  beforeAll(async () => {
    // The cluster runs the bundles jest's global setup built from the current sources (a restart compiles no TypeScript).
    await sink.start();
    redis = await startPrivateRedis();
    pg = await startPrivatePostgres();
    cluster = await startTestCluster(services, pg.url, {
      REDIS_URL: redis.url, EVENT_TOPIC_PREFIX: prefix, SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '100',
    }, { bundles: true });
    db = knex({ client: 'pg', connection: pg.url, pool: { min: 0, max: 2 } });
    t = await setupTable(cluster.gatewayUrl, `faults-${Date.now()}@example.com`);
    const hook = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'faults', event: 'after', operation: ['insert', 'update'], version: 'v3', async: true, retries: 10, retry_interval: 500, timeout: 5000,
      notification: { type: 'URL', payload: { method: 'POST', path: sink.url } },
    });
    expect(hook.status).toBe(200);
    load = new WriteLoad({ gatewayUrl: cluster.gatewayUrl, token: t.token, baseId: t.baseId, tableId: t.tableId }, timing.workers);
  }, 180_000);

  afterAll(async () => {
    await load?.stop();
    await db?.destroy();
    await cluster?.stop();
    await Promise.all([pg?.destroy(), redis?.destroy(), sink.stop()]);
  }, 60_000);

  it('loses no acknowledged write and no event, and every component answers again within the bound', async () => {
    for (const fault of faults) {
      load.start(fault.name);
      await sleep(timing.warmMs);
      await fault.inject();
      await sleep(timing.downMs);
      const restarted = Date.now();
      await fault.recover();
      while (!(await probes[fault.name]())) {
        if (Date.now() - restarted > 2 * RECOVERY_BOUND_MS) break;
        await sleep(50);
      }
      recovery.set(fault.name, Date.now() - restarted);
      if (process.env.FAULT_DEBUG) await debugDump(`after ${fault.name}`);
      await sleep(timing.afterMs);
      await load.stop();
    }

    // Drain: wait until every acknowledged write's event arrived and no delivery is pending or in flight.
    const drainStarted = Date.now();
    let lastReport = 0;
    const markers = load.acked.flatMap((w) => w.markers);
    for (;;) {
      const open = await db.withSchema('hooks').table('deliveries').whereIn('status', ['pending', 'delivering']).count({ n: '*' }).first();
      if (markers.every((m) => sink.seen.has(m)) && Number(open?.n) === 0) break;
      if (process.env.FAULT_DEBUG && Date.now() - lastReport > 5000) {
        lastReport = Date.now();
        const missing = markers.filter((m) => !sink.seen.has(m));
        const openRows = await db.withSchema('hooks').table('deliveries').whereIn('status', ['pending', 'delivering']).select('status', 'attempt', 'locked_until', 'created_at');
        process.stdout.write(`drain: missing ${missing.length} ${missing.slice(0, 5).join(',')} open ${JSON.stringify(openRows.slice(0, 5))} now ${new Date().toISOString()}\n`);
      }
      if (Date.now() - drainStarted > DRAIN_BOUND_MS) break;
      await sleep(250);
    }
    const drainMs = Date.now() - drainStarted;
    const complete = markers.every((m) => sink.seen.has(m));

    const state = await tableState(db, t.baseId, 'items');
    const rows: FaultRow[] = faults.map((f) => faultRow(f.name, load.of(f.name), state, sink, load.failed.get(f.name) ?? 0, recovery.get(f.name) ?? -1));
    const list = await call(cluster.gatewayUrl, t.token, 'GET', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}?limit=1`);
    const distinct = await db.withSchema(t.baseId).table('items').countDistinct({ n: 'name' }).first();
    process.stdout.write(`\nFault suite (${long ? 'FAULT_LONG' : 'CI'} timing: ${timing.workers} writers, ${timing.warmMs} ms before the fault, `
      + `${timing.downMs} ms down, ${timing.afterMs} ms after recovery)\n${formatTable(rows)}\n`
      + `${complete ? 'every acknowledged write\'s event delivered' : 'events still missing'} ${drainMs} ms after the last fault; webhook calls ${sink.calls}; `
      + `rows in table ${state.rows}, list totalRows ${list.body?.pageInfo?.totalRows}, distinct names ${distinct?.n}\n`);

    for (const row of rows) {
      expect({ fault: row.fault, found: row.found, delivered: row.delivered }).toEqual({ fault: row.fault, found: row.acknowledged, delivered: row.acknowledged });
      expect(row.acknowledged).toBeGreaterThan(0);
      expect(row.recoveryMs).toBeLessThan(RECOVERY_BOUND_MS);
    }
    expect(list.body.pageInfo.totalRows).toBe(state.rows);
    expect(Number(distinct?.n)).toBe(state.rows);
  }, 300_000);
});
