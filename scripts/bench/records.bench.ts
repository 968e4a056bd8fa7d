/**
 * Records API speed (issue 5): on a 100,000-row, 10-column table, req/s, p50 and
 * p99 of list-25, a where on an indexed column plus sort, read by id, insert one
 * and bulk insert (batches of 1000) — each beside the same SQL straight through
 * `pg` at the same concurrency, in standalone and in cluster mode, in one run;
 * then the p50 of a filtered, sorted first page of a 1,000,000-row table.
 * Needs DATABASE_URL (and REDIS_URL for cluster mode). Loopback only.
 * Usage: npm run bench:records [-- --seconds 5 --concurrency 16 --rows 100000 --skip-cluster --skip-million]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Pool } from 'pg';
import { signIdentity, type Principal } from '@tabula/auth';
import { printTable, runLoad, runOps, type LoadResult } from './load';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup, waitFor } from './records-fixture';
import { poster, rawQueries } from './records-load';
import { startStandaloneChild } from './standalone-child';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(`--${name}`);
const seconds = arg('seconds', 5);
const concurrency = arg('concurrency', 16);
const tableRows = arg('rows', 100_000);
const BATCH = 1000;
const ms = seconds * 1000;

/** Where a mode's gateway and data service listen, and how to call each. */
interface Target {
  mode: string;
  gateway: string;
  data: string;
  token: string;
  identity: string;
  dbUrl: string;
}

function rowsPerSecond(r: LoadResult): LoadResult {
  return { ...r, label: `${r.label} = ${Math.round(r.rps * BATCH).toLocaleString('en')} rows/s` };
}

async function reads(t: Target, pathOf: string, raw: ReturnType<typeof rawQueries>): Promise<void> {
  const viaData = { 'x-tabula-identity': t.identity };
  const viaGateway = { 'xc-auth': t.token };
  const cases: [string, string, (i: number) => Promise<unknown>][] = [
    ['list-25', '', () => raw.list()],
    ['where (Score,gt,50000) + sort -Score (indexed)', '?where=(Score,gt,50000)&sort=-Score', () => raw.whereSort(50_000)],
    ['read by id', '/4242', () => raw.read(4242)],
  ];
  for (const [name, suffix, op] of cases) {
    printTable(`${t.mode}: ${name}, ${concurrency} connections, ${seconds} s each`, [
      await runOps('pg directly (same SQL)', op, concurrency, ms),
      await runLoad('data service directly', `${t.data}${pathOf}${suffix}`, viaData, concurrency, ms),
      await runLoad('through the gateway', `${t.gateway}${pathOf}${suffix}`, viaGateway, concurrency, ms),
    ]);
  }
}

async function writes(t: Target, base: string, table: string, raw: ReturnType<typeof rawQueries>): Promise<void> {
  const one = poster(`${t.gateway}/api/v1/db/data/noco/${base}/${table}`, { 'xc-auth': t.token }, concurrency);
  printTable(`${t.mode}: insert one, ${concurrency} connections, ${seconds} s each`, [
    await runOps('pg directly (the INSERT)', (i) => raw.insertOne(i), concurrency, ms),
    await runOps('through the gateway', (i) => one.post(sampleBody(i)), concurrency, ms),
  ]);
  await one.close();
  const batch = Array.from({ length: BATCH }, (_, i) => sampleBody(i));
  const bulk = poster(`${t.gateway}/api/v1/db/data/bulk/noco/${base}/${table}`, { 'xc-auth': t.token }, concurrency);
  printTable(`${t.mode}: bulk insert, batches of ${BATCH}, ${concurrency} connections, ${seconds} s each`, [
    rowsPerSecond(await runOps('pg directly (same INSERT)', (i) => raw.bulk(i, BATCH), concurrency, ms)),
    rowsPerSecond(await runOps('through the gateway', () => bulk.post(batch), concurrency, ms)),
  ]);
  await bulk.close();
}

async function million(t: Target, baseId: string): Promise<void> {
  const table = await createTable(t.gateway, t.token, 'Bench1m', baseId);
  await fillTable(t.dbUrl, table, 1_000_000);
  const pool = new Pool({ connectionString: t.dbUrl, max: 1 });
  const suffix = `/api/v1/db/data/noco/${baseId}/${table.title}?where=(Score,gt,50000)&sort=-Score`;
  // A new filter value on every request: no cached count can help (totalRows must come from elsewhere).
  const fresh = (i: number) => fetch(`${t.gateway}${suffix.replace('50000', String(50_000 + i))}`, { headers: { 'xc-auth': t.token } })
    .then(async (res) => { await res.arrayBuffer(); if (res.status >= 400) throw new Error(`status ${res.status}`); });
  printTable(`${t.mode}: 1,000,000 rows, filtered sorted first page, 1 connection, ${seconds} s each (target p50 < 50 ms)`, [
    await runOps('pg directly (same SQL)', () => rawQueries(pool, table).whereSort(50_000), 1, ms),
    await runLoad('through the gateway', `${t.gateway}${suffix}`, { 'xc-auth': t.token }, 1, ms),
    await runOps('gateway, new filter value each time', fresh, 1, ms),
  ]);
  await pool.end();
}

async function measure(t: Target, withMillion: boolean): Promise<void> {
  const table = await createTable(t.gateway, t.token, 'Bench100k');
  await fillTable(t.dbUrl, table, tableRows);
  const pool = new Pool({ connectionString: t.dbUrl, max: concurrency });
  const raw = rawQueries(pool, table);
  await reads(t, `/api/v1/db/data/noco/${table.baseId}/${table.title}`, raw);
  await writes(t, table.baseId, table.title, raw);
  await pool.end();
  if (withMillion) await million(t, table.baseId);
}

async function standalone(): Promise<void> {
  const dbUrl = await freshDatabase('records');
  const server = await startStandaloneChild({ ...process.env, DATABASE_URL: dbUrl, DATA_DIR: path.resolve('data/bench') }, 'data');
  try {
    const { token, principal } = await signup(server.url);
    const identity = signIdentity(principal, server.secret);
    await measure({ mode: 'standalone', gateway: server.url, data: server.directUrl, token, identity, dbUrl }, !flag('skip-million'));
  } finally {
    await server.stop();
    await dropDatabase(dbUrl);
  }
}

async function cluster(): Promise<void> {
  if (flag('skip-cluster')) return;
  if (!process.env.REDIS_URL) { console.log('\ncluster mode skipped: REDIS_URL not set'); return; }
  const secret = randomBytes(48).toString('base64url');
  const dbUrl = await freshDatabase('records_cluster');
  const env = { ...process.env, DATABASE_URL: dbUrl, PORT: '18481', SVC_INTERNAL_SECRET: secret, SVC_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', CLUSTER_RESTART: 'false', DATA_DIR: path.resolve('data/bench-cluster') };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'start-cluster.ts')], { env, stdio: 'ignore' });
  try {
    const gateway = 'http://127.0.0.1:18481';
    await waitFor(`${gateway}/api/v1/health`);
    for (const port of [8101, 8102, 8103]) await waitFor(`http://127.0.0.1:${port}/readyz`);
    const { token, principal } = await signup(gateway);
    const identity = signIdentity(principal as Principal, secret);
    await measure({ mode: 'cluster', gateway, data: 'http://127.0.0.1:8103', token, identity, dbUrl }, false);
  } finally {
    await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
    await dropDatabase(dbUrl);
  }
}

standalone().then(cluster).then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
