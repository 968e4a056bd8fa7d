/**
 * Records API speed (issues 5 and 16): on a 100,000-row, 10-column table, req/s,
 * p50 and p99 of list-25, a where on an indexed column plus sort, read by id,
 * insert one and bulk insert (batches of 1000) — each beside the same SQL
 * straight through `pg` and beside the floor (a bare node:http server running
 * that SQL through one pool, in its own process: records-floor.ts), at the same
 * concurrency in the same run, reported as ratios to both; list-25, read by id
 * and insert one also beside the minimal floor (issue 34: the same server
 * running the least SQL each needs — `select *` ordered by id, by primary key,
 * `insert … returning *` — no count, no outbox). Opt-in (`--million`):
 * the filtered, sorted first page of a 1,000,000-row table (seeded with
 * generate_series) with an exact count requested (`count=exact`).
 * Every scenario's paths run in `--rounds` (3) alternated rounds, each path
 * reported by its median round (this machine's speed drifts within a minute).
 * Modes: standalone (one process) and cluster (`start:cluster`: one process per service).
 * With both, the two deployments then stay up and cluster / standalone is
 * measured per scenario in `--rounds` back-to-back alternations (medians).
 * Needs DATABASE_URL (and REDIS_URL for cluster mode). Loopback only.
 * `versions`: list-25 and read by id on NocoDB's v1, v2 and v3 paths, alternated (v2 and v3 within 10 % of v1).
 * The standalone server runs with the defaults of `npm start` (access log lines, tracing on without an
 * exporter); `--quiet` turns both off. Standalone figures add the server process's CPU µs per request
 * (every thread, /proc schedstat) and the minimal floor's CPU per request as a share of it.
 * Usage: npm run bench:records [-- --quiet --seconds 5 --concurrency 10 --rows 100000 --mode standalone|cluster|both --million --rounds 3 --only list,where,read,versions,insert,bulk]
 *   (`--cluster` = `--mode cluster`, `--skip-cluster` = `--mode standalone`; env BENCH_MODE, BENCH_MILLION=1)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Pool } from 'pg';
import { signIdentity, type Principal } from '@tabula/auth';
import { runLoad, runOps, type LoadResult } from './load';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup, waitFor, type BenchTable } from './records-fixture';
import { poster, printRatios, rawQueries, startFloor, withCpu, type Floor } from './records-load';
import { startStandaloneChild } from './standalone-child';
import { clusterArgs } from './bundled';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const modeArg = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : undefined;
const mode = flag('cluster') ? 'cluster' : flag('skip-cluster') ? 'standalone' : (modeArg ?? process.env.BENCH_MODE ?? 'both');
const withMillion = flag('million') || process.env.BENCH_MILLION === '1';
const seconds = arg('seconds', 5);
const concurrency = arg('concurrency', 10);
const tableRows = arg('rows', 100_000);
/** Exact counts up to this many rows (the data service's SVC_EXACT_COUNT_MAX_ROWS default). */
const COUNT_LIMIT = 100_000;
const BATCH = 1000;
const ms = seconds * 1000;
/** `--quiet`: the standalone server without access logs and tracing (before 27 November 2026 every run was so). */
const quiet = flag('quiet');
const serverLogging: NodeJS.ProcessEnv = quiet ? { LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true' } : { LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'false' };

/** Where a mode's gateway and data service listen, and how to call each. */
interface Target {
  mode: string;
  gateway: string;
  data: string;
  token: string;
  /** A freshly signed internal identity (they are short-lived: sign one per scenario). */
  identity: () => string;
  dbUrl: string;
  /** The serving process (standalone), whose CPU time per request is measured. */
  pid?: number;
}

/** Load rounds per path (`--rounds`): the paths of a scenario alternate, each reported by its median round. */
const ROUNDS = arg('rounds', 3);

/** `--only insert,read`: run only these scenarios (list, where, read, versions, insert, bulk; the 1M one needs `--million`). */
const onlyArg = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : undefined;
const wants = (scenario: string) => !onlyArg || onlyArg.includes(scenario);

/**
 * Runs every path of one scenario `ROUNDS` times, alternating (pg, floor,
 * service, gateway, pg, …), and answers each path's median round by req/s.
 * This machine's speed drifts by tens of % within a minute; alternating
 * rounds and medians keep a ratio from reading one path in a fast moment and
 * the other in a slow one.
 */
async function alternated(paths: (() => Promise<LoadResult>)[]): Promise<LoadResult[]> {
  return (await inRounds(paths)).map((runs) => ({ ...medianRun(runs), errors: runs.reduce((sum, r) => sum + r.errors, 0) }));
}

/** Each path's runs, `ROUNDS` rounds of the paths in turn. */
async function inRounds(paths: (() => Promise<LoadResult>)[]): Promise<LoadResult[][]> {
  const results: LoadResult[][] = paths.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, run] of paths.entries()) results[i].push(await run());
  }
  return results;
}

/** The run with the median req/s. */
function medianRun(runs: LoadResult[]): LoadResult {
  return [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)];
}

async function reads(t: Target, pathOf: string, raw: ReturnType<typeof rawQueries>, floor: Floor): Promise<void> {
  const viaGateway = { 'xc-auth': t.token };
  const cases: [string, string, string, string, string | undefined, (i: number) => Promise<unknown>][] = [
    ['list', 'list-25', '', '/list', '/min/list', () => raw.list()],
    ['where', 'where (Score,gt,50000) + sort -Score (indexed)', '?where=(Score,gt,50000)&sort=-Score', '/where?min=50000', undefined, () => raw.whereSort(50_000)],
    ['read', 'read by id', '/4242', '/read/4242', '/min/read/4242', () => raw.read(4242)],
  ];
  for (const [id, name, suffix, floorPath, minimalPath, op] of cases) {
    if (!wants(id)) continue;
    printRatios(`${t.mode}: ${name}, ${concurrency} connections, ${seconds} s each, median of ${ROUNDS} alternated rounds`, await alternated([
      () => runOps('pg directly (same SQL)', op, concurrency, ms),
      () => withCpu(floor.pid, () => runLoad('floor (bare node:http + pg)', `${floor.url}${floorPath}`, {}, concurrency, ms)),
      ...(minimalPath ? [() => withCpu(floor.pid, () => runLoad('minimal floor (least SQL, no count)', `${floor.url}${minimalPath}`, {}, concurrency, ms))] : []),
      () => withCpu(t.pid, () => runLoad('data service directly', `${t.data}${pathOf}${suffix}`, { 'x-tabula-identity': t.identity() }, concurrency, ms)),
      () => withCpu(t.pid, () => runLoad('through the gateway', `${t.gateway}${pathOf}${suffix}`, viaGateway, concurrency, ms)),
    ]));
  }
}

/**
 * `versions`: list-25 and read by id through NocoDB's v1 path, its v2 path
 * (`/api/v2/tables/{tableId}/records`) and its v3 path
 * (`/api/v3/data/{baseId}/{tableId}/records`), the same use cases, alternated
 * rounds through the gateway (issue 33: v2 and v3 within 10 % of v1).
 */
async function apiVersions(t: Target, table: BenchTable): Promise<void> {
  if (!wants('versions')) return;
  const auth = { 'xc-auth': t.token };
  const tables = await (await fetch(`${t.gateway}/api/v2/meta/bases/${table.baseId}/tables`, { headers: auth })).json() as { list: { id: string; title: string }[] };
  const tableId = tables.list.find((x) => x.title === table.title)?.id;
  if (!tableId) throw new Error(`versions: no table ${table.title}`);
  const v1 = `${t.gateway}/api/v1/db/data/noco/${table.baseId}/${table.title}`;
  const v2 = `${t.gateway}/api/v2/tables/${tableId}/records`;
  const v3 = `${t.gateway}/api/v3/data/${table.baseId}/${tableId}/records`;
  for (const [name, one, two, three] of [['list-25', v1, v2, v3], ['read by id', `${v1}/4242`, `${v2}/4242`, `${v3}/4242`]]) {
    const [a, b, c] = await alternated([
      () => runLoad(`v1 ${one.slice(t.gateway.length)}`, one, auth, concurrency, ms),
      () => runLoad(`v2 ${two.slice(t.gateway.length)}`, two, auth, concurrency, ms),
      () => runLoad(`v3 ${three.slice(t.gateway.length)}`, three, auth, concurrency, ms),
    ]);
    if (a.errors || b.errors || c.errors) throw new Error(`versions ${name}: ${a.errors + b.errors + c.errors} errors`);
    const pct = (r: LoadResult) => `${((r.rps / a.rps) * 100).toFixed(0)} %`;
    printRatios(`${t.mode}: ${name} v1, v2 and v3 through the gateway, ${concurrency} connections, ${seconds} s each, median of ${ROUNDS} alternated rounds: v2 at ${pct(b)}, v3 at ${pct(c)} of v1`, [a, b, c]);
  }
}

async function postLoad(label: string, url: string, headers: Record<string, string>, body: (i: number) => unknown): Promise<LoadResult> {
  const p = poster(url, headers, concurrency);
  try { return await runOps(label, (i) => p.post(body(i)), concurrency, ms); } finally { await p.close(); }
}

async function writes(t: Target, base: string, table: string, raw: ReturnType<typeof rawQueries>, floor: Floor): Promise<void> {
  const one = `/api/v1/db/data/noco/${base}/${table}`;
  if (wants('insert')) printRatios(`${t.mode}: insert one, ${concurrency} connections, ${seconds} s each, median of ${ROUNDS} alternated rounds`, await alternated([
    () => runOps('pg directly (the INSERT)', (i) => raw.insertOne(i), concurrency, ms),
    () => withCpu(floor.pid, () => postLoad('floor (bare node:http + pg)', `${floor.url}/insert`, {}, sampleBody)),
    () => withCpu(floor.pid, () => postLoad('minimal floor (insert returning *)', `${floor.url}/min/insert`, {}, sampleBody)),
    () => withCpu(t.pid, () => postLoad('data service directly', `${t.data}${one}`, { 'x-tabula-identity': t.identity() }, sampleBody)),
    () => withCpu(t.pid, () => postLoad('through the gateway', `${t.gateway}${one}`, { 'xc-auth': t.token }, sampleBody)),
  ]));
  const batch = Array.from({ length: BATCH }, (_, i) => sampleBody(i));
  const bulk = `/api/v1/db/data/bulk/noco/${base}/${table}`;
  if (wants('bulk')) printRatios(`${t.mode}: bulk insert, batches of ${BATCH}, ${concurrency} connections, ${seconds} s each, median of ${ROUNDS} alternated rounds`, await alternated([
    () => runOps('pg directly (same INSERT)', (i) => raw.bulk(i, BATCH), concurrency, ms),
    () => postLoad('floor (bare node:http + pg)', `${floor.url}/bulk`, {}, () => batch),
    () => postLoad('data service directly', `${t.data}${bulk}`, { 'x-tabula-identity': t.identity() }, () => batch),
    () => postLoad('through the gateway', `${t.gateway}${bulk}`, { 'xc-auth': t.token }, () => batch),
  ]), { per: BATCH, name: 'rows/s' });
}

async function million(t: Target, table: BenchTable, floor: Floor): Promise<void> {
  const pool = new Pool({ connectionString: t.dbUrl, max: 2 });
  const suffix = `/api/v1/db/data/noco/${table.baseId}/${table.title}?where=(Score,gt,50000)&sort=-Score`;
  // A new filter value on every request: no cached count can help.
  const fresh = (count: string) => (i: number) => fetch(`${t.gateway}${suffix.replace('50000', String(50_000 + (i % 40_000)))}${count}`, { headers: { 'xc-auth': t.token } })
    .then(async (res) => { await res.arrayBuffer(); if (res.status >= 400) throw new Error(`status ${res.status}`); });
  printRatios(`${t.mode}: 1,000,000 rows, filtered sorted first page, 1 connection, ${seconds} s each (target p50 < 50 ms with count=exact)`, [
    await runOps('pg directly (page + bounded count)', () => rawQueries(pool, table).pageAndCount(50_000, COUNT_LIMIT), 1, ms),
    await runLoad('floor (page + bounded count)', `${floor.url}/million?min=50000`, {}, 1, ms),
    await runLoad('gateway, count=exact', `${t.gateway}${suffix}&count=exact`, { 'xc-auth': t.token }, 1, ms),
    await runOps('gateway, count=exact, new filter value each time', fresh('&count=exact'), 1, ms),
    await runOps('gateway, default count, new filter value each time', fresh(''), 1, ms),
  ]);
  await pool.end();
}

/** A second of load on every path first: the first scenario should not pay for JIT warm-up. */
async function warmUp(t: Target, pathOf: string, floor: Floor): Promise<void> {
  await runLoad('warm-up', `${floor.url}/list`, {}, concurrency, 1000);
  await runLoad('warm-up', `${t.data}${pathOf}`, { 'x-tabula-identity': t.identity() }, concurrency, 1000);
  await runLoad('warm-up', `${t.gateway}${pathOf}`, { 'xc-auth': t.token }, concurrency, 1000);
}

async function measure(t: Target): Promise<BenchTable> {
  const table = await createTable(t.gateway, t.token, 'Bench100k');
  await fillTable(t.dbUrl, table, tableRows);
  const big = withMillion ? await createTable(t.gateway, t.token, 'Bench1m', table.baseId) : undefined;
  if (big) await fillTable(t.dbUrl, big, 1_000_000);
  const floor = await startFloor(t.dbUrl, { main: table, million: big, countLimit: COUNT_LIMIT }, concurrency);
  const pool = new Pool({ connectionString: t.dbUrl, max: concurrency });
  try {
    const raw = rawQueries(pool, table);
    const pathOf = `/api/v1/db/data/noco/${table.baseId}/${table.title}`;
    await warmUp(t, pathOf, floor);
    await reads(t, pathOf, raw, floor);
    await apiVersions(t, table);
    await writes(t, table.baseId, table.title, raw, floor);
    if (big) await million(t, big, floor);
  } finally {
    await pool.end();
    await floor.stop();
  }
  return table;
}

/** A mode that was measured and still runs (for the interleaved comparison). */
interface Running {
  target: Target;
  table: BenchTable;
  stop(): Promise<void>;
}

/**
 * `--mode both`: cluster / standalone per scenario from measurements taken
 * back to back, while both deployments run (the other one idle), `rounds`
 * alternations (standalone then cluster), reported as medians. The per-mode
 * tables above are minutes apart, and this machine's speed drifts by more than
 * the ratio's margin over minutes; adjacent runs cancel most of that drift.
 */
async function interleaved(a: Running, b: Running): Promise<void> {
  const batch = Array.from({ length: BATCH }, (_, i) => sampleBody(i));
  type Scenario = [string, string, (r: Running) => Promise<LoadResult>, number];
  const records = (r: Running) => `${r.target.gateway}/api/v1/db/data/noco/${r.table.baseId}/${r.table.title}`;
  const bulk = (r: Running) => `${r.target.gateway}/api/v1/db/data/bulk/noco/${r.table.baseId}/${r.table.title}`;
  const auth = (r: Running) => ({ 'xc-auth': r.target.token });
  const scenarios: Scenario[] = [
    ['list', 'list-25', (r) => runLoad(r.target.mode, records(r), auth(r), concurrency, ms), 1],
    ['where', 'where + sort', (r) => runLoad(r.target.mode, `${records(r)}?where=(Score,gt,50000)&sort=-Score`, auth(r), concurrency, ms), 1],
    ['read', 'read by id', (r) => runLoad(r.target.mode, `${records(r)}/4242`, auth(r), concurrency, ms), 1],
    ['insert', 'insert one', (r) => postLoad(r.target.mode, records(r), auth(r), sampleBody), 1],
    ['bulk', 'bulk insert (rows/s)', (r) => postLoad(r.target.mode, bulk(r), auth(r), () => batch), BATCH],
  ];
  const rows: Record<string, string | number>[] = [];
  for (const [id, name, run, per] of scenarios) {
    if (!wants(id)) continue;
    const [ours, theirs] = await inRounds([() => run(a), () => run(b)]);
    const errors = [...ours, ...theirs].reduce((sum, r) => sum + r.errors, 0);
    if (errors) throw new Error(`${name}: ${errors} errors`);
    const mine = medianRun(ours).rps * per;
    const other = medianRun(theirs).rps * per;
    rows.push({
      scenario: name, [a.target.mode]: Math.round(mine), [b.target.mode]: Math.round(other),
      [`${b.target.mode} / ${a.target.mode}`]: `${((other / mine) * 100).toFixed(0)} %`,
      'each round': ours.map((x, i) => `${((theirs[i].rps / x.rps) * 100).toFixed(0)} %`).join(' '),
    });
  }
  console.log(`\ncluster / standalone through the gateway, interleaved: ${ROUNDS} rounds of ${seconds} s each, medians (target >= 70 %)`);
  console.table(rows);
}

async function standalone(): Promise<Running> {
  const dbUrl = await freshDatabase('records');
  // The server runs with Tabula's defaults (LOG_LEVEL info: an access line per request; tracing on, spans
  // made and not exported) unless `--quiet` (no logs, no tracing) or the caller's environment says otherwise.
  const server = await startStandaloneChild({ ...serverLogging, ...process.env, DATABASE_URL: dbUrl, DATA_DIR: path.resolve('data/bench') }, 'data');
  const stop = async () => {
    await server.stop();
    await dropDatabase(dbUrl);
  };
  try {
    const { token, principal } = await signup(server.url);
    const identity = () => signIdentity(principal, server.secret);
    const target = { mode: 'standalone', gateway: server.url, data: server.directUrl, token, identity, dbUrl, pid: server.child.pid };
    console.log(`standalone server: LOG_LEVEL=${server.env.LOG_LEVEL}, tracing ${server.env.OTEL_SDK_DISABLED === 'true' ? 'off' : 'on (not exported)'}${quiet ? ' (--quiet)' : ''}`);
    return { target, table: await measure(target), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function cluster(): Promise<Running | undefined> {
  if (!process.env.REDIS_URL) { console.log('\ncluster mode skipped: REDIS_URL not set'); return undefined; }
  const secret = randomBytes(48).toString('base64url');
  const dbUrl = await freshDatabase('records_cluster');
  const env = { ...process.env, DATABASE_URL: dbUrl, PORT: '18481', SVC_INTERNAL_SECRET: secret, SVC_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', CLUSTER_RESTART: 'false', DATA_DIR: path.resolve('data/bench-cluster') };
  const child = spawn(process.execPath, clusterArgs(), { env, stdio: 'ignore' });
  const stop = async () => {
    await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
    await dropDatabase(dbUrl);
  };
  try {
    const gateway = 'http://127.0.0.1:18481';
    await waitFor(`${gateway}/api/v1/health`);
    for (const port of [8101, 8102, 8103]) await waitFor(`http://127.0.0.1:${port}/readyz`);
    const { token, principal } = await signup(gateway);
    const identity = () => signIdentity(principal as Principal, secret);
    const target = { mode: 'cluster', gateway, data: 'http://127.0.0.1:8103', token, identity, dbUrl };
    return { target, table: await measure(target), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Each mode measured in turn; with both, the two stay up for the interleaved comparison, then stop. */
async function main(): Promise<void> {
  const running: Running[] = [];
  try {
    if (mode !== 'cluster') running.push(await standalone());
    if (mode !== 'standalone') {
      const c = await cluster();
      if (c) running.push(c);
    }
    if (running.length === 2) await interleaved(running[0], running[1]);
  } finally {
    for (const r of running.reverse()) await r.stop();
  }
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
