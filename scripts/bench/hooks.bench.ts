/**
 * Webhook delivery: commit-to-delivery latency (API response of the write →
 * request at the sink) for single inserts at a fixed rate and under concurrent
 * writers, deliveries per second to a local sink (several hooks per insert), and
 * 1000-row bulk inserts. Standalone Tabula runs in a child process, the sink in
 * another (sink-server.mjs: a busy writer would stamp arrivals late), the
 * client here. After each phase the per-stage histograms of the hooks
 * service (its own `/metrics`) are read and their p50/p99 printed
 * (interpolated within buckets: approximate). Needs DATABASE_URL.
 * `--bus redis` (REDIS_URL) or `--bus kafka` (KAFKA_BROKERS, e.g. after `npm run kafka:start`)
 * carries the events over Redis Streams or Kafka instead of the in-process bus.
 * `--hooks-replicas N` (with --bus redis|kafka; needs `npm run build`) runs cluster
 * mode instead (the launcher, dist/cluster/main.js, `CLUSTER_REPLICAS=hooks=N`):
 * every service its own process, N hooks replicas sharing the consumer group,
 * their stage histograms summed.
 * Usage: npm run bench:hooks [-- --bus memory|redis|kafka --hooks-replicas 1|2 --rate 200 --seconds 5 --singles 300 --concurrency 8 --fanout 10 --bulks 10]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, freePortBase, waitHealthy } from '@tabula/testing';
import { call, setupTable } from '../../e2e/hooks-e2e.helpers';
import { startStandaloneChild } from './standalone-child';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rate = arg('rate', 200);
const seconds = arg('seconds', 5);
const singles = arg('singles', 300);
const concurrency = arg('concurrency', 8);
const fanout = arg('fanout', 10);
const bulks = arg('bulks', 10);
const busIndex = process.argv.indexOf('--bus');
const bus = busIndex > 0 ? process.argv[busIndex + 1] : 'memory';
if (!['memory', 'redis', 'kafka'].includes(bus)) throw new Error(`--bus must be memory, redis or kafka, got ${bus}`);
if (bus === 'kafka' && !process.env.KAFKA_BROKERS) throw new Error('--bus kafka needs KAFKA_BROKERS (npm run kafka:start)');
if (bus === 'redis' && !process.env.REDIS_URL) throw new Error('--bus redis needs REDIS_URL');
const hooksReplicas = arg('hooks-replicas', 0);
if (hooksReplicas && bus === 'memory') throw new Error('--hooks-replicas needs --bus redis or kafka (cluster mode)');

/** The system under test: the gateway's URL, the hooks processes' /metrics, a stop. */
interface Target { url: string; metricsUrls: string[]; stop(): Promise<void> }

/** The sink process (sink-server.mjs): its URL, the arrivals it stamped per path, a stop. */
class RemoteSink {
  url = '';
  private child?: ReturnType<typeof spawn>;

  async start(): Promise<void> {
    const child = spawn(process.execPath, [path.resolve(__dirname, 'sink-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    this.child = child;
    this.url = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const line = buffer.split('\n').find((l) => l.startsWith('{"url":'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`sink exited with ${code}`)));
    });
  }

  /** Arrival time (epoch ms) of each row name at a path, as the sink stamped it. */
  async arrivals(hookPath: string): Promise<{ count: number; arrivals: Map<string, number> }> {
    const res = await fetch(`${this.url}/_arrivals?path=${encodeURIComponent(hookPath)}`);
    const body = (await res.json()) as { count: number; arrivals: Record<string, number> };
    return { count: body.count, arrivals: new Map(Object.entries(body.arrivals)) };
  }

  /** Waits until `count` requests reached a path. */
  async waitFor(hookPath: string, count: number, timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const res = await fetch(`${this.url}/_arrivals?only=count&path=${encodeURIComponent(hookPath)}`);
      const seen = ((await res.json()) as { count: number }).count;
      if (seen >= count) return;
      if (Date.now() > until) throw new Error(`sink: ${seen}/${count} requests at ${hookPath}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child!.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** Cluster mode on the launcher with `replicas` hooks processes (ports from a free base; replica n on hooks' port + 10(n-1)). */
async function startCluster(env: NodeJS.ProcessEnv, replicas: number): Promise<Target> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-bench-hooks-'));
  const gatewayPort = await freePort();
  const hooksOffsets = Array.from({ length: replicas }, (_, i) => 7 + 10 * i);
  const base = await freePortBase([1, 2, 3, 4, 5, 6, ...hooksOffsets]);
  const childEnv: NodeJS.ProcessEnv = {
    ...env, CLUSTER_REPLICAS: `hooks=${replicas}`, DATA_DIR: dataDir, PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base),
    LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true',
  };
  for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'METRICS_PORT']) delete childEnv[name];
  for (const name of ['AUTH', 'META', 'DATA', 'COMMENTS', 'STORAGE', 'INTEGRATIONS', 'HOOKS']) delete childEnv[`${name}_SERVICE_URL`];
  const launcher = spawn(process.execPath, [path.resolve(__dirname, '../../dist/cluster/main.js')], { env: childEnv, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
  const ports = [1, 2, 3, 4, 5, 6, ...hooksOffsets].map((offset) => base + offset);
  await waitHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 180_000);
  for (const port of ports) await waitHealthy(`http://127.0.0.1:${port}/readyz`, 180_000);
  return {
    url: `http://127.0.0.1:${gatewayPort}`,
    metricsUrls: hooksOffsets.map((offset) => `http://127.0.0.1:${base + offset}/metrics`),
    stop: async () => {
      await new Promise<void>((resolve) => { launcher.once('exit', () => resolve()); launcher.kill('SIGTERM'); });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database for this run (dropped at the end). */
async function freshDatabase(): Promise<{ name: string; url: string }> {
  const name = `tabula_bench_hooks_${Date.now()}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Latency of each delivery: sink arrival time minus the write's API response time, by record name. */
function latencies(committedAt: Map<string, number>, arrivals: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [name, at] of arrivals) {
    const committed = committedAt.get(name);
    if (committed !== undefined) out.push(Math.max(0, at - committed));
  }
  return out.sort((a, b) => a - b);
}

/** Cumulative bucket counts of every histogram series: `name{labels}` → [[le, count]]. */
type Buckets = Map<string, Array<[number, number]>>;

async function scrape(metricsUrls: string[]): Promise<Buckets> {
  const text = (await Promise.all(metricsUrls.map(async (url) => (await fetch(url)).text()))).join('\n');
  const out: Buckets = new Map();
  // the replicas' histograms share their buckets: their counts add up
  const sums = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\w+)_bucket\{(.*)\} (\S+)$/.exec(line);
    if (!m || !m[1].startsWith('hook_')) continue;
    const labels = m[2].split(/,(?=\w+=)/).filter((l) => !l.startsWith('le=') && !l.startsWith('service='));
    const le = /le="([^"]+)"/.exec(m[2])?.[1] ?? '+Inf';
    const key = `${m[1]}${labels.length ? `{${labels.join(',')}}` : ''}`;
    sums.set(`${key}\u0000${le}`, (sums.get(`${key}\u0000${le}`) ?? 0) + Number(m[3]));
  }
  for (const [keyLe, count] of sums) {
    const [key, le] = keyLe.split('\u0000');
    out.set(key, [...(out.get(key) ?? []), [le === '+Inf' ? Infinity : Number(le), count]]);
  }
  return out;
}

/** p50/p99 (ms) of each histogram between two scrapes, interpolated linearly inside a bucket. */
function stageTable(before: Buckets, after: Buckets): Array<Record<string, string | number>> {
  const rows: Array<Record<string, string | number>> = [];
  for (const [key, buckets] of after) {
    const base = new Map(before.get(key) ?? []);
    const delta = buckets.map(([le, n]) => [le, n - (base.get(le) ?? 0)] as [number, number]).sort((a, b) => a[0] - b[0]);
    const total = delta[delta.length - 1]?.[1] ?? 0;
    if (!total) continue;
    const quantile = (q: number) => {
      const target = q * total;
      let prevLe = 0;
      let prevCount = 0;
      for (const [le, count] of delta) {
        if (count >= target) {
          if (le === Infinity) return `>${prevLe * 1000}`;
          const within = count - prevCount;
          return ((prevLe + (within ? (target - prevCount) / within : 0) * (le - prevLe)) * 1000).toFixed(1);
        }
        prevLe = le;
        prevCount = count;
      }
      return '?';
    };
    rows.push({ stage: key, count: total, 'p50 ms': quantile(0.5), 'p99 ms': quantile(0.99) });
  }
  return rows;
}

async function main(): Promise<void> {
  const database = await freshDatabase();
  const env = { ...process.env, DATABASE_URL: database.url, SVC_ALLOW_LOCAL_HOOKS: 'true', EVENT_BUS: bus, EVENT_TOPIC_PREFIX: `bench${Date.now().toString(36)}` };
  let server: Target;
  if (hooksReplicas) server = await startCluster(env, hooksReplicas);
  else {
    const child = await startStandaloneChild({ ...env, DATA_DIR: path.resolve('data/bench-hooks') }, 'hooks');
    // the hooks service's own handler (standalone-server exposes it on a port of its own) serves its /metrics
    server = { url: child.url, metricsUrls: [`${child.directUrl}/metrics`], stop: () => child.stop() };
  }
  const metricsUrl = server.metricsUrls;
  const sink = new RemoteSink();
  await sink.start();
  const results: Array<Record<string, string | number>> = [];
  const stages: Array<{ phase: string; rows: Array<Record<string, string | number>> }> = [];
  const phase = async (name: string, run: () => Promise<Record<string, string | number>>) => {
    const before = await scrape(metricsUrl).catch(() => new Map() as Buckets);
    results.push({ case: name, ...(await run()) });
    stages.push({ phase: name, rows: stageTable(before, await scrape(metricsUrl).catch(() => new Map() as Buckets)) });
  };
  try {
    const t = await setupTable(server.url, `bench-hooks-${Date.now()}@example.com`);
    const addHook = async (tableId: string, hookPath: string) => {
      const hook = await call(server.url, t.token, 'POST', `/api/v1/db/meta/tables/${tableId}/hooks`, {
        title: 'bench', event: 'after', operation: ['insert'], version: 'v3', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}${hookPath}` } },
      });
      if (hook.status !== 200) throw new Error(`hook create failed: ${JSON.stringify(hook.body)}`);
    };
    await addHook(t.tableId, '/bench');
    const records = `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`;
    const insert = async (name: string, committedAt: Map<string, number>, table = records) => {
      const res = await call(server.url, t.token, 'POST', table, { Name: name });
      if (res.status !== 200) throw new Error(`insert failed: ${res.status}`);
      committedAt.set(name, Date.now());
    };
    const arrivalsAt = async (hookPath: string) => (await sink.arrivals(hookPath)).arrivals;
    let expected = 0;
    // warm-up: connections, caches, JIT
    const warm = new Map<string, number>();
    for (let i = 0; i < 20; i += 1) await insert(`w-${i}`, warm);
    expected += 20;
    await sink.waitFor('/bench', expected, 60_000);

    await phase(`fixed rate ${rate}/s for ${seconds} s`, async () => {
      const committedAt = new Map<string, number>();
      const total = rate * seconds;
      const started = Date.now();
      // open loop, but at most 64 writes outstanding: a server that falls behind lowers the achieved rate (printed) instead of piling up sockets
      const outstanding = new Set<Promise<void>>();
      for (let i = 0; i < total; i += 1) {
        const due = started + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        while (outstanding.size >= 64) await Promise.race(outstanding);
        const write: Promise<void> = insert(`r-${i}`, committedAt).finally(() => outstanding.delete(write));
        outstanding.add(write);
      }
      await Promise.all(outstanding);
      const achieved = total / ((Date.now() - started) / 1000);
      expected += total;
      await sink.waitFor('/bench', expected, 120_000);
      const single = latencies(committedAt, new Map([...(await arrivalsAt('/bench'))].filter(([k]) => k.startsWith('r-'))));
      return { 'inserts/s': achieved.toFixed(0), 'deliveries/s': '-', 'p50 ms': pct(single, 50), 'p99 ms': pct(single, 99) };
    });

    await phase(`${concurrency} concurrent writers (${singles} inserts)`, async () => {
      const committedAt = new Map<string, number>();
      let next = 0;
      const started = Date.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < singles) await insert(`s-${next++}`, committedAt);
      }));
      const achieved = singles / ((Date.now() - started) / 1000);
      expected += singles;
      await sink.waitFor('/bench', expected, 120_000);
      const mine = new Map([...(await arrivalsAt('/bench'))].filter(([k]) => k.startsWith('s-')));
      const elapsed = (Math.max(...mine.values()) - started) / 1000;
      const single = latencies(committedAt, mine);
      return { 'inserts/s': achieved.toFixed(0), 'deliveries/s': (singles / elapsed).toFixed(0), 'p50 ms': pct(single, 50), 'p99 ms': pct(single, 99) };
    });

    // throughput: a second table with `fanout` hooks, so every insert is `fanout` deliveries
    const t2 = await call(server.url, t.token, 'POST', `/api/v1/db/meta/projects/${t.baseId}/tables`, {
      title: 'Fanout', table_name: 'fanout', columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }],
    });
    if (t2.status !== 200) throw new Error(`table create failed: ${JSON.stringify(t2.body)}`);
    for (let h = 0; h < fanout; h += 1) await addHook(t2.body.id, `/fan${h}`);
    await phase(`${concurrency} writers × ${fanout} hooks (${singles} inserts)`, async () => {
      const committedAt = new Map<string, number>();
      const fanRecords = `/api/v1/db/data/noco/${t.baseId}/${t2.body.id}`;
      let next = 0;
      const started = Date.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < singles) await insert(`f-${next++}`, committedAt, fanRecords);
      }));
      const achieved = singles / ((Date.now() - started) / 1000);
      for (let h = 0; h < fanout; h += 1) await sink.waitFor(`/fan${h}`, singles, 120_000);
      const all: number[] = [];
      let last = 0;
      for (let h = 0; h < fanout; h += 1) {
        const mine = await arrivalsAt(`/fan${h}`);
        all.push(...latencies(committedAt, mine));
        last = Math.max(last, ...mine.values());
      }
      all.sort((a, b) => a - b);
      return { 'inserts/s': achieved.toFixed(0), 'deliveries/s': ((singles * fanout) / ((last - started) / 1000)).toFixed(0), 'p50 ms': pct(all, 50), 'p99 ms': pct(all, 99) };
    });

    await phase(`1000-row bulk inserts (${bulks})`, async () => {
      const bulkLatency: number[] = [];
      for (let b = 0; b < bulks; b += 1) {
        const rows = Array.from({ length: 1000 }, (_, i) => ({ Name: `b${b}-${i}` }));
        const res = await call(server.url, t.token, 'POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, rows);
        if (res.status !== 200) throw new Error(`bulk insert failed: ${res.status}`);
        const committed = Date.now();
        expected += 1;
        await sink.waitFor('/bench', expected, 120_000);
        bulkLatency.push(Math.max(0, ((await arrivalsAt('/bench')).get(`b${b}-999`) ?? Date.now()) - committed));
      }
      bulkLatency.sort((a, b) => a - b);
      return { 'inserts/s': '-', 'deliveries/s': '-', 'p50 ms': pct(bulkLatency, 50), 'p99 ms': pct(bulkLatency, 99) };
    });

    console.log(`\nwebhook deliveries to a local sink (${hooksReplicas ? `cluster mode, ${hooksReplicas} hooks replica${hooksReplicas > 1 ? 's' : ''}` : 'standalone'}, events over ${bus}; load ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}; commit = API response of the write, delivery = request at the sink)`);
    console.table(results);
    for (const s of stages) {
      console.log(`\nstages (hooks metrics) — ${s.phase}`);
      console.table(s.rows);
    }
  } finally {
    await sink.stop();
    await server.stop();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`)).catch((err) => console.error(`could not drop ${database.name}: ${String(err)}`));
  }
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
