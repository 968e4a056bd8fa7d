import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, startTestCluster, waitHealthy, type TestDatabase } from '../libs/testing/src';

/**
 * `npm run soak`: measures peak throughput of a mixed workload briefly, then
 * holds 80 % of it for SOAK_MINUTES (default 10), sampling every process's RSS,
 * the error count, throughput and latency every 10 s, and prints a final table.
 * Standalone by default (`node dist/standalone/main.js`); `--cluster` runs one
 * process per service on Redis (REDIS_URL). Needs DATABASE_URL (a fresh
 * database is created and dropped). Run `npm run build` first.
 *
 * Workload: list 30 %, read 25 %, insert 20 %, update 15 %, 5-row bulk insert
 * 10 %, on one table with an async webhook (insert, update) to a local sink.
 * Settings: SOAK_MINUTES, SOAK_PEAK_SECONDS (20), SOAK_CONCURRENCY (16, the
 * peak probe's parallel clients), SOAK_LOAD (0.8), SOAK_SAMPLE_SECONDS (10).
 */
const cluster = process.argv.includes('--cluster');
const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const peakSeconds = Number(process.env.SOAK_PEAK_SECONDS ?? 20);
const concurrency = Number(process.env.SOAK_CONCURRENCY ?? 16);
const loadFactor = Number(process.env.SOAK_LOAD ?? 0.8);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 10);
const root = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Target { url: string; token: string; baseId: string; tableId: string; ids: number[] }
interface Stats { ok: number; errors: number; latencies: number[]; errorKinds: Map<string, number> }
const newStats = (): Stats => ({ ok: 0, errors: 0, latencies: [], errorKinds: new Map() });

async function api(t: Pick<Target, 'url' | 'token'>, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.url}${p}`, {
    method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000),
    headers: { 'content-type': 'application/json', ...(t.token ? { 'xc-auth': t.token } : {}) },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let seq = 0;
/** Writes answered 2xx (each one record event, so one webhook call expected). */
let writesAcked = 0;
/** One operation of the mix; resolves with its status. */
async function operation(t: Target): Promise<number> {
  const r = Math.random();
  const status = await pick(t, r);
  if (r >= 0.55 && status >= 200 && status < 300) writesAcked++;
  return status;
}

async function pick(t: Target, r: number): Promise<number> {
  const data = `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`;
  const someId = () => t.ids[Math.floor(Math.random() * t.ids.length)];
  if (r < 0.30) return (await api(t, 'GET', `${data}?limit=25&offset=${Math.floor(Math.random() * 100)}`)).status;
  if (r < 0.55) return (await api(t, 'GET', `${data}/${someId()}`)).status;
  if (r < 0.75) {
    const res = await api(t, 'POST', data, { Name: `soak-${seq++}`, Qty: 0 });
    if (res.status === 200 && t.ids.length < 5000) t.ids.push(Number(res.body.Id));
    return res.status;
  }
  if (r < 0.90) return (await api(t, 'PATCH', `${data}/${someId()}`, { Qty: seq++ })).status;
  const rows = Array.from({ length: 5 }, () => ({ Name: `soak-${seq++}`, Qty: 0 }));
  return (await api(t, 'POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, rows)).status;
}

/** Runs one operation and records it in every given stats. */
async function timed(t: Target, ...into: Stats[]): Promise<void> {
  const started = performance.now();
  let failure: string | undefined;
  try {
    const status = await operation(t);
    if (status < 200 || status >= 300) failure = String(status);
  } catch (err) {
    failure = (err as Error).name;
  }
  const ms = performance.now() - started;
  for (const stats of into) {
    stats.latencies.push(ms);
    if (!failure) stats.ok++;
    else { stats.errors++; stats.errorKinds.set(failure, (stats.errorKinds.get(failure) ?? 0) + 1); }
  }
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** RSS in MB of a process (Linux /proc). */
function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Math.round(Number(line?.split(/\s+/)[1]) / 1024);
  } catch { return NaN; }
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

interface System { url: string; pids(): Record<string, number | undefined>; stop(): Promise<void> }

async function startStandalone(databaseUrl: string): Promise<System> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-soak-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'dist/standalone/main.js')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SVC_ALLOW_LOCAL_HOOKS: 'true', LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(`${url}/healthz`, 120_000);
  return {
    url,
    pids: () => ({ standalone: child.pid }),
    stop: async () => {
      await new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startCluster(databaseUrl: string): Promise<System> {
  const names = ['auth', 'meta', 'data', 'comments', 'storage', 'integrations', 'hooks'];
  const c = await startTestCluster(names, databaseUrl, { SVC_ALLOW_LOCAL_HOOKS: 'true', LOG_LEVEL: 'warn' }, { bundles: true });
  return { url: c.gatewayUrl, pids: () => Object.fromEntries([...names, 'gateway'].map((n) => [n, c.pid(n)])), stop: () => c.stop() };
}

async function setup(url: string, sinkUrl: string): Promise<Target> {
  const signup = await api({ url, token: '' }, 'POST', '/api/v1/auth/user/signup', { email: `soak-${Date.now()}@example.com`, password: 'Password123!' });
  const t: Target = { url, token: signup.body.token, baseId: '', tableId: '', ids: [] };
  t.baseId = (await api(t, 'POST', '/api/v1/db/meta/projects', { title: 'Soak' })).body.id;
  t.tableId = (await api(t, 'POST', `/api/v1/db/meta/projects/${t.baseId}/tables`, {
    title: 'Items', table_name: 'items', columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'name', title: 'Name', uidt: 'SingleLineText' },
      { column_name: 'qty', title: 'Qty', uidt: 'Number' },
    ],
  })).body.id;
  const hook = await api(t, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
    title: 'soak', event: 'after', operation: ['insert', 'update'], version: 'v3', async: true,
    notification: { type: 'URL', payload: { method: 'POST', path: sinkUrl } },
  });
  if (hook.status !== 200) throw new Error(`hook: ${hook.status} ${JSON.stringify(hook.body)}`);
  const seed = await api(t, 'POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, Array.from({ length: 200 }, (_, i) => ({ Name: `seed-${i}`, Qty: 0 })));
  if (seed.status !== 200) throw new Error(`seed: ${seed.status}`);
  const list = await api(t, 'GET', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}?limit=200`);
  t.ids.push(...(list.body.list as Array<{ Id: number }>).map((r) => r.Id));
  return t;
}

/** Closed loop: `concurrency` clients back to back for `seconds`; answers operations per second. */
async function measurePeak(t: Target): Promise<{ rate: number; stats: Stats }> {
  const stats = newStats();
  const until = Date.now() + peakSeconds * 1000;
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, async () => { while (Date.now() < until) await timed(t, stats); }));
  return { rate: stats.ok / ((Date.now() - started) / 1000), stats };
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required (a fresh database is created on it and dropped afterwards)');
  if (cluster && !process.env.REDIS_URL) throw new Error('--cluster needs REDIS_URL');
  execFileSync(process.execPath, [path.join(root, 'scripts/build-service.mjs'), cluster ? 'all' : 'standalone'], { stdio: 'ignore' });
  let deliveries = 0;
  const sink = createServer((req, res) => { req.resume(); req.on('end', () => { deliveries++; res.end('ok'); }); });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;
  const database: TestDatabase = await createTestDatabase('tabula_soak');
  const system = cluster ? await startCluster(database.url) : await startStandalone(database.url);
  try {
    const t = await setup(system.url, sinkUrl);
    const peak = await measurePeak(t);
    const rate = peak.rate * loadFactor;
    console.log(`${cluster ? 'cluster' : 'standalone'}: peak ${peak.rate.toFixed(0)} ops/s (${concurrency} clients, ${peakSeconds} s, p50 ${percentile(peak.stats.latencies, 50).toFixed(1)} ms, p99 ${percentile(peak.stats.latencies, 99).toFixed(1)} ms, errors ${peak.stats.errors}); holding ${rate.toFixed(0)} ops/s for ${minutes} min`);
    const total = newStats();
    let window = newStats();
    const samples: Array<{ t: number; rss: Record<string, number>; errors: number }> = [];
    const sample = (elapsed: number) => {
      const rss = Object.fromEntries(Object.entries(system.pids()).map(([n, pid]) => [n, rssMb(pid)]));
      samples.push({ t: elapsed, rss, errors: total.errors });
      console.log(`t=${String(Math.round(elapsed)).padStart(4)} s  ${(window.ok / sampleSeconds).toFixed(0).padStart(4)} ops/s  p50 ${percentile(window.latencies, 50).toFixed(1)} ms  p99 ${percentile(window.latencies, 99).toFixed(1)} ms  errors ${total.errors}  webhooks ${deliveries}  RSS MB ${Object.entries(rss).map(([n, v]) => `${n} ${v}`).join(' ')}`);
      window = newStats();
    };
    const started = Date.now();
    sample(0);
    const end = started + minutes * 60_000;
    const inFlight = new Set<Promise<void>>();
    let nextSample = started + sampleSeconds * 1000;
    let dropped = 0;
    for (let n = 0; Date.now() < end; n++) {
      const due = started + (n * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      // Open loop: a request starts on schedule, whatever the answers; past 256 in flight the system is saturated.
      if (inFlight.size >= 256) { dropped++; continue; }
      const job = timed(t, total, window);
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      if (Date.now() >= nextSample) { sample((Date.now() - started) / 1000); nextSample += sampleSeconds * 1000; }
    }
    await Promise.all(inFlight);
    const seconds = (Date.now() - started) / 1000;
    // Webhooks still queued: wait (bounded) for the calls of every acknowledged write.
    const drainStarted = Date.now();
    while (deliveries < writesAcked && Date.now() - drainStarted < 60_000) await sleep(200);
    const drainMs = Date.now() - drainStarted;
    sample((Date.now() - started) / 1000);
    const middle = samples[Math.floor(samples.length / 2)];
    const rows = Object.keys(samples[0].rss).map((name) => {
      const points = samples.map((s) => [s.t / 60, s.rss[name]] as [number, number]);
      // The second half leaves out the warm-up (heap and pools growing to their working size).
      const late = points.slice(Math.floor(points.length / 2));
      return `| ${name.padEnd(12)} | ${String(samples[0].rss[name]).padStart(5)} | ${String(middle.rss[name]).padStart(6)} | ${String(samples[samples.length - 1].rss[name]).padStart(5)} | ${slope(points).toFixed(2).padStart(12)} | ${slope(late).toFixed(2).padStart(9)} |`;
    });
    console.log(`
| metric | value |
|:--|--:|
| mode | ${cluster ? 'cluster' : 'standalone'} |
| peak (closed loop, ${concurrency} clients) | ${peak.rate.toFixed(0)} ops/s |
| target (${Math.round(loadFactor * 100)} %) | ${rate.toFixed(0)} ops/s |
| achieved | ${(total.ok / seconds).toFixed(0)} ops/s over ${(seconds / 60).toFixed(1)} min |
| requests ok / errors | ${total.ok} / ${total.errors}${total.errorKinds.size ? ` (${[...total.errorKinds].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''} |
| skipped (256 in flight) | ${dropped} |
| p50 / p99 | ${percentile(total.latencies, 50).toFixed(1)} ms / ${percentile(total.latencies, 99).toFixed(1)} ms |
| webhook calls received / writes acknowledged | ${deliveries} / ${writesAcked} (last ones ${drainMs} ms after the load stopped) |

| process | RSS start MB | middle | end | slope MB/min | 2nd half |
|:--|--:|--:|--:|--:|--:|
${rows.join('\n')}`);
  } finally {
    await system.stop();
    await database.drop();
    sink.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
