/**
 * Fault runs 1 and 4 of issue 30, on the real launcher (`start:cluster`,
 * dist/cluster/main.js) over Kafka: a stream of single inserts into several
 * tables (each a base of its own, so their events spread over partitions),
 * one after-insert hook per table pointing at a local webhook sink, and
 *
 * - `kill`: two hooks replicas (`CLUSTER_REPLICAS=hooks=2`, `CLUSTER_RESTART=false`);
 *   mid-stream the replica that consumed the most events so far gets SIGKILL. The
 *   survivor takes its partitions once the session times out, and the deliveries
 *   the dead one had claimed once their lock expires (the hook's timeout + 30 s).
 * - `join`: one hooks replica; mid-stream a second hooks process (same settings
 *   as the launcher's children) joins the consumer group, and Kafka rebalances.
 *
 * The sink counts requests per `webhook-id` (duplicates), per record (losses:
 * acknowledged inserts that never arrived) and, per table, how many records
 * arrived before one inserted earlier (out of order, by first arrival).
 * Used by scripts/kafka/fault-hooks.ts (`npm run kafka:fault:kill|join`) and
 * e2e/hooks-replica-faults.test.ts. Needs `npm run build` (dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestApi, col, createTestDatabase, deleteKafkaTopics, freePort, freePortBase, waitHealthy, type TestUser } from '@tabula/testing';
import { clusterLayout } from '../../libs/runtime/src/cluster-layout';
import { Sink, call, setupTable } from '../../e2e/hooks-e2e.helpers';

const root = path.resolve(__dirname, '../..');

export type HooksFaultMode = 'kill' | 'join';

export interface HooksFaultOptions {
  mode: HooksFaultMode;
  brokers: string;
  /** How long single inserts keep coming (ms). */
  writeMs: number;
  /** When the replica is killed or joins, from the first insert (ms). */
  faultAtMs: number;
  /** Tables (one base each) the inserts go round-robin to. */
  tables: number;
  /** How long to wait for the last deliveries after the stream (ms). */
  settleMs?: number;
  log?: (line: string) => void;
}

export interface HooksFaultCounts {
  mode: HooksFaultMode;
  acknowledged: number;
  failedWrites: number;
  webhookRequests: number;
  /** Requests beyond the first per webhook-id. */
  duplicates: number;
  /** Records delivered more than once (under different webhook-ids: should not happen). */
  duplicateRecords: number;
  /** Acknowledged inserts that never reached the sink. */
  losses: number;
  /** Records whose first arrival came after a later insert of the same table's. */
  outOfOrder: number;
  /** The first few records out of order (`late after earlier-arrived`). */
  late: string[];
  /** Which hooks process was killed or joined, and the events (records topic) each replica consumed. */
  fault: string;
  consumedPerReplica: Record<string, number>;
}

/** Sum of a metric's samples whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string>): number {
  return text.split('\n')
    .filter((line) => line.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function consumedAt(port: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), () => '');
  return total(text, 'events_consumed_total', { service: 'hooks', topic: 'records' });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const exited = (child: ChildProcess, signal: NodeJS.Signals) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill(signal);
});

export async function runHooksFault(options: HooksFaultOptions): Promise<HooksFaultCounts> {
  const log = options.log ?? ((line: string) => console.log(line));
  const database = await createTestDatabase('tabula_fault');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-fault-hooks-'));
  const prefix = `f${path.basename(dataDir).replace(/[^A-Za-z0-9]/g, '').slice(-10)}`;
  const gatewayPort = await freePort();
  const base = await freePortBase([1, 2, 3, 4, 5, 6, 7, 17]);
  const hooksPorts = options.mode === 'kill' ? [base + 7, base + 17] : [base + 7];
  const env: NodeJS.ProcessEnv = {
    ...process.env, EVENT_BUS: 'kafka', KAFKA_BROKERS: options.brokers, EVENT_TOPIC_PREFIX: prefix,
    // the smallest session the broker allows by default: a killed replica's partitions move after 6 s
    KAFKA_SESSION_TIMEOUT_MS: '6000', CLUSTER_RESTART: options.mode === 'kill' ? 'false' : 'true',
    DATA_DIR: dataDir, DATABASE_URL: database.url, PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base),
    LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '200',
  };
  if (options.mode === 'kill') env.CLUSTER_REPLICAS = 'hooks=2'; else delete env.CLUSTER_REPLICAS;
  // join: one attempt in flight per process, so the sink sees the order in which each replica handled a
  // table's events (with the default 32 in flight, webhook calls of one process can overtake each other:
  // delivery order is first come, first served, not guaranteed, with or without a rebalance)
  if (options.mode === 'join') env.SVC_HOOKS_CONCURRENCY = '1';
  for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'METRICS_PORT']) delete env[name];
  for (const name of ['AUTH', 'META', 'DATA', 'COMMENTS', 'STORAGE', 'INTEGRATIONS', 'HOOKS']) delete env[`${name}_SERVICE_URL`];
  let output = '';
  const launcher = spawn(process.execPath, [path.join(root, 'dist', 'cluster', 'main.js')], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  launcher.stdout?.on('data', (chunk) => { output += chunk; });
  launcher.stderr?.on('data', (chunk) => { output += chunk; });
  let joined: ChildProcess | undefined;
  const sink = new Sink();
  await sink.start();
  try {
    try {
      await waitHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 120_000);
      for (const port of [1, 2, 3, 4, 5, 6].map((offset) => base + offset).concat(hooksPorts)) await waitHealthy(`http://127.0.0.1:${port}/readyz`, 120_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the launcher's output:\n${output.split('\n').slice(-40).join('\n')}`);
    }
    const gateway = `http://127.0.0.1:${gatewayPort}`;
    const first = await setupTable(gateway, `fault-${options.mode}-${Date.now()}@example.com`);
    const api = new TestApi(gateway);
    const tables: Array<{ token: string; baseId: string; tableId: string }> = [first];
    while (tables.length < options.tables) {
      const table = await api.baseWithTable({ token: first.token } as TestUser, { title: 'Items', table_name: 'items', columns: [col.id(), col.text('Name')] });
      tables.push({ token: first.token, baseId: table.baseId, tableId: table.id });
    }
    for (let k = 0; k < options.tables; k += 1) {
      const t = tables[k];
      const hook = await call(gateway, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
        title: `fault-${k}`, event: 'after', operation: 'insert', version: 'v3', timeout: 2000,
        notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/t${k}` } },
      });
      if (hook.status !== 200) throw new Error(`hook: ${hook.status} ${JSON.stringify(hook.body)}`);
    }

    const acknowledged: string[][] = tables.map(() => []);
    let failed = 0;
    let fault = '';
    const started = Date.now();
    // the stream goes on for writeMs, and at least 10 s after the fault (a slow start of the joining process)
    let streamUntil = started + options.writeMs;
    let faultOver = false;
    const faultDone = (async () => {
      await sleep(options.faultAtMs);
      if (options.mode === 'kill') {
        const names = ['hooks', 'hooks-2'];
        const consumed = await Promise.all(hooksPorts.map(consumedAt));
        const victim = consumed[1] > consumed[0] ? 1 : 0;
        const pid = Number(readFileSync(path.join(dataDir, 'cluster', `${names[victim]}.pid`), 'utf8'));
        process.kill(pid, 'SIGKILL');
        fault = `SIGKILL ${names[victim]} (pid ${pid}, had consumed ${consumed[victim]} of ${consumed[0] + consumed[1]} events) at ${Date.now() - started} ms`;
      } else {
        const port = await freePort();
        const layoutEnv = clusterLayout(env).env;
        joined = spawn(process.execPath, ['--max-semi-space-size=2', path.join(root, 'dist', 'hooks', 'main.js')], {
          cwd: root, env: { ...layoutEnv, PORT: String(port), METRICS_PORT: '0' }, stdio: 'ignore',
        });
        hooksPorts.push(port);
        await waitHealthy(`http://127.0.0.1:${port}/readyz`, 150_000);
        fault = `a second hooks process (pid ${joined.pid}, :${port}) ready at ${Date.now() - started} ms`;
        // the stream goes on until the rebalance gave it work (at most 30 s: it may get none of the tables' partitions)
        const until = Date.now() + 30_000;
        while (Date.now() < until && (await consumedAt(port)) === 0) await sleep(500);
        fault += (await consumedAt(port)) > 0 ? `, consuming from ${Date.now() - started} ms` : ', consumed nothing within 30 s (none of the tables\' partitions)';
      }
      log(`[fault ${options.mode}] ${fault}`);
      streamUntil = Math.max(streamUntil, Date.now() + 10_000);
    })().finally(() => { faultOver = true; });
    for (let i = 0; !faultOver || Date.now() < streamUntil; i += 1) {
      const k = i % tables.length;
      const t = tables[k];
      const name = `t${k}-${i}`;
      const res = await call(gateway, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: name }).catch(() => ({ status: 0 }));
      if (res.status === 200) acknowledged[k].push(name); else failed += 1;
    }
    await faultDone;
    const expected = acknowledged.reduce((sum, names) => sum + names.length, 0);
    log(`[fault ${options.mode}] ${expected} inserts acknowledged in ${Date.now() - started} ms; waiting for their deliveries`);
    const distinctIds = () => new Set(sink.received.map((r) => r.headers['webhook-id'])).size;
    const until = Date.now() + (options.settleMs ?? 120_000);
    while (distinctIds() < expected && Date.now() < until) await sleep(200);
    await sleep(2000); // room for a duplicate to show up

    const perId = new Map<string, number>();
    for (const r of sink.received) perId.set(r.headers['webhook-id'], (perId.get(r.headers['webhook-id']) ?? 0) + 1);
    let losses = 0;
    let outOfOrder = 0;
    let duplicateRecords = 0;
    const late: string[] = [];
    tables.forEach((_, k) => {
      const requests = sink.at(`/t${k}`).map((r) => ({ name: (JSON.parse(r.body).data.rows as { Name: string }[])[0].Name, webhookId: r.headers['webhook-id'] }));
      // per record, the distinct webhook-ids it came under: a repeated webhook-id is at-least-once
      // redelivery of one attempt (counted in `duplicates`); two webhook-ids would be a double ingest
      const perRecord = new Map<string, Set<string>>();
      for (const { name, webhookId } of requests) perRecord.set(name, (perRecord.get(name) ?? new Set()).add(webhookId));
      duplicateRecords += [...perRecord.values()].filter((ids) => ids.size > 1).length;
      losses += acknowledged[k].filter((name) => !perRecord.has(name)).length;
      const firstSeen = [...perRecord.keys()].map((name) => Number(name.split('-')[1]));
      let highest = -1;
      for (const seq of firstSeen) {
        if (seq < highest) {
          outOfOrder += 1;
          if (late.length < 10) late.push(`t${k}-${seq} after t${k}-${highest}`);
        }
        highest = Math.max(highest, seq);
      }
    });
    const consumed = await Promise.all(hooksPorts.map(consumedAt));
    const replicaNames = options.mode === 'kill' ? ['hooks', 'hooks-2'] : ['hooks', 'joined'];
    return {
      mode: options.mode,
      acknowledged: expected,
      failedWrites: failed,
      webhookRequests: sink.received.length,
      duplicates: [...perId.values()].reduce((sum, n) => sum + n - 1, 0),
      duplicateRecords,
      losses,
      outOfOrder,
      late,
      fault,
      consumedPerReplica: Object.fromEntries(replicaNames.map((name, i) => [name, consumed[i]])),
    };
  } finally {
    if (joined) await exited(joined, 'SIGTERM');
    await exited(launcher, 'SIGTERM');
    await sink.stop();
    await database.drop();
    await deleteKafkaTopics(prefix, options.brokers);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
