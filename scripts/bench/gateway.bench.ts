/**
 * Gateway overhead: req/s and p50/p99 of a trivial authenticated route
 * (`GET /api/v1/auth/user/me`) and of a records read by id (1,000-row table)
 * through the gateway vs straight to the owning service (same identity, forged
 * as the gateway would), in standalone and in cluster mode, measured in one
 * run; ends with cluster-through-the-gateway as a share of standalone (issue
 * 16: >= 70 %). Needs DATABASE_URL (and REDIS_URL for the cluster part).
 * Usage: npm run bench:gateway [-- --seconds 5 --concurrency 16 --skip-standalone]
 * (CLUSTER_NODE_FLAGS passes through to the cluster's service processes.)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { signIdentity, type Principal } from '@tabula/auth';
import { printTable, runLoad, type LoadResult } from './load';
import { createTable, dropDatabase, fillTable } from './records-fixture';
import { startStandaloneChild } from './standalone-child';
import { clusterArgs } from './bundled';
import { startBenchServer } from './records-load';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 5);
const concurrency = arg('concurrency', 16);
/** Cluster service ports (auth +1, meta +2, data +3): away from the default 8100 another run may hold. */
const portBase = arg('port-base', 18500);

type Mode = 'standalone' | 'cluster';
/** A load result plus the server-side CPU it cost (every process of the mode, summed). */
type Measured = LoadResult & { cpuMsPerRequest: number };
/** Through-the-gateway results per scenario and mode, for the closing ratio. */
const viaGateway: Record<string, Partial<Record<Mode, Measured>>> = {};

/**
 * CPU milliseconds (user + system) spent so far by a process and all its
 * descendants, from /proc (Linux; empty elsewhere), per process named by what
 * it runs (a cluster's `dist/<service>/main.js`, else `launcher`). On a
 * shared, noisy machine req/s swing with the neighbours; CPU per request is
 * the steadier figure, and its split shows where a mode's CPU goes.
 */
function treeCpuByProcess(root: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (!root || !existsSync('/proc/self/stat')) return out;
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const dir of readdirSync('/proc')) {
    if (!/^\d+$/.test(dir)) continue;
    try {
      const stat = readFileSync(`/proc/${dir}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(dir), Number(fields[1]));
      cpu.set(Number(dir), (Number(fields[11]) + Number(fields[12])) * 10); // clock ticks of 10 ms
    } catch { /* the process ended meanwhile */ }
  }
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    let name = 'launcher';
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      name = /dist\/([a-z]+)\/main\.js/.exec(cmd)?.[1] ?? /dist\/bench\/([a-z-]+)\.js/.exec(cmd)?.[1] ?? name;
    } catch { /* ended */ }
    out.set(name, (out.get(name) ?? 0) + (cpu.get(pid) ?? 0));
    for (const [child, of] of parent) if (of === pid) stack.push(child);
  }
  return out;
}

async function measured(serverPid: number | undefined, label: string, url: string, headers: Record<string, string>, extraPid?: number): Promise<Measured> {
  const cpuNow = () => {
    const all = treeCpuByProcess(serverPid);
    for (const [name, ms] of treeCpuByProcess(extraPid)) all.set(name, (all.get(name) ?? 0) + ms);
    return all;
  };
  const before = cpuNow();
  const result = await runLoad(label, url, headers, concurrency, seconds * 1000);
  const after = cpuNow();
  const perProcess = [...after].map(([name, ms]) => [name, (ms - (before.get(name) ?? 0)) / result.requests] as const);
  const cpuMsPerRequest = after.size ? perProcess.reduce((a, [, ms]) => a + ms, 0) : NaN;
  // Where it went, by process (a cluster's services; 10 ms ticks, so small shares are coarse).
  if (perProcess.length > 1) console.log(`  ${label}: CPU ms/req by process: ${perProcess.filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]).map(([n, ms]) => `${n} ${ms.toFixed(3)}`).join(', ')}`);
  return { ...result, label: `${label} (${cpuMsPerRequest.toFixed(3)} CPU ms/req)`, cpuMsPerRequest };
}

/** Runs each scenario straight to the owning service and through the gateway. */
async function scenarios(mode: Mode, serverPid: number | undefined, gateway: string, direct: { auth: string; data: string }, dbUrl: string, token: string, identity: string): Promise<void> {
  const table = await createTable(gateway, token, 'GwBench');
  await fillTable(dbUrl, table, 1000);
  const cases: [string, string, string][] = [
    ['trivial route (GET /api/v1/auth/user/me)', direct.auth, '/api/v1/auth/user/me'],
    ['records read by id', direct.data, `/api/v1/db/data/noco/${table.baseId}/${table.title}/42`],
  ];
  for (const [name, service, route] of cases) {
    // Warm both paths (JIT, pools, caches) so neither row pays for it.
    await runLoad('warm-up', `${service}${route}`, { 'x-tabula-identity': identity }, concurrency, 1000);
    await runLoad('warm-up', `${gateway}${route}`, { 'xc-auth': token }, concurrency, 1000);
    const rows = [
      await measured(serverPid, 'service directly', `${service}${route}`, { 'x-tabula-identity': identity }),
      await measured(serverPid, 'through the gateway', `${gateway}${route}`, { 'xc-auth': token }),
    ];
    if (mode === 'cluster') {
      // The floor of the hop: a bare node:http + undici proxy to the same service, the identity added, nothing else.
      const proxy = await startBenchServer('scripts/bench/proxy-floor.ts', [service], { PROXY_HEADER: `x-tabula-identity:${identity}` });
      try {
        await runLoad('warm-up', `${proxy.url}${route}`, {}, concurrency, 1000);
        rows.push(await measured(serverPid, 'through a bare proxy (hop floor)', `${proxy.url}${route}`, {}, proxy.pid));
      } finally {
        await proxy.stop();
      }
    }
    (viaGateway[name] ??= {})[mode] = rows[1];
    printTable(`${mode}: ${name}, ${concurrency} connections, ${seconds} s each`, rows);
  }
}

function summary(): void {
  // With --skip-standalone there is nothing to compare: the per-mode tables above say it all.
  if (!Object.values(viaGateway).some((r) => r.standalone && r.cluster)) return;
  console.log('\ncluster through the gateway as a share of standalone through the gateway (target >= 70 %; noisy machine)');
  console.table(Object.entries(viaGateway).map(([name, r]) => ({
    scenario: name, 'standalone req/s': Math.round(r.standalone?.rps ?? NaN), 'cluster req/s': Math.round(r.cluster?.rps ?? NaN),
    'cluster / standalone': r.standalone && r.cluster ? `${((r.cluster.rps / r.standalone.rps) * 100).toFixed(0)} %` : 'n/a',
    'CPU ms/req standalone': r.standalone?.cpuMsPerRequest.toFixed(3), 'CPU ms/req cluster': r.cluster?.cpuMsPerRequest.toFixed(3),
    // On a CPU-bound machine throughput goes as 1 / CPU per request: the share the noise does not move.
    'by CPU: cluster / standalone': r.standalone && r.cluster ? `${((r.standalone.cpuMsPerRequest / r.cluster.cpuMsPerRequest) * 100).toFixed(0)} %` : 'n/a',
  })));
}

async function freshDatabase(): Promise<string> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required');
  const name = `tabula_bench_${Date.now()}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function signup(base: string): Promise<{ token: string; principal: Principal }> {
  const email = `bench-${Date.now()}@example.com`;
  const res = await fetch(`${base}/api/v1/auth/user/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench-password-1' }),
  });
  const { token } = (await res.json()) as { token: string };
  const me = (await (await fetch(`${base}/api/v1/auth/user/me`, { headers: { 'xc-auth': token } })).json()) as { id: string; roles: string };
  return { token, principal: { kind: 'user', id: me.id, email, roles: me.roles.split(','), via: 'jwt' } };
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try { if ((await fetch(url)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

async function standalone(): Promise<void> {
  if (process.argv.includes('--skip-standalone')) return;
  const dbUrl = await freshDatabase();
  const server = await startStandaloneChild({ ...process.env, DATABASE_URL: dbUrl, DATA_DIR: path.resolve('data/bench') }, 'auth,data');
  try {
    const { token, principal } = await signup(server.url);
    const identity = signIdentity(principal, server.secret);
    await scenarios('standalone', server.child.pid, server.url, { auth: server.directUrls.auth, data: server.directUrls.data }, dbUrl, token, identity);
  } finally {
    await server.stop();
    await dropDatabase(dbUrl);
  }
}

async function cluster(): Promise<void> {
  if (!process.env.REDIS_URL) { console.log('\ncluster mode skipped: REDIS_URL not set'); return; }
  const secret = randomBytes(48).toString('base64url');
  const dbUrl = await freshDatabase();
  const env = { ...process.env, DATABASE_URL: dbUrl, PORT: '18480', SERVICE_PORT_BASE: String(portBase), SVC_INTERNAL_SECRET: secret, SVC_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', CLUSTER_RESTART: 'false', DATA_DIR: path.resolve('data/bench-cluster') };
  const child = spawn(process.execPath, clusterArgs(), { env, stdio: 'ignore' });
  try {
    await waitFor('http://127.0.0.1:18480/api/v1/health');
    for (const port of [portBase + 1, portBase + 2, portBase + 3]) await waitFor(`http://127.0.0.1:${port}/readyz`);
    const { token, principal } = await signup('http://127.0.0.1:18480');
    const identity = signIdentity(principal, secret);
    await scenarios('cluster', child.pid, 'http://127.0.0.1:18480', { auth: `http://127.0.0.1:${portBase + 1}`, data: `http://127.0.0.1:${portBase + 3}` }, dbUrl, token, identity);
  } finally {
    await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
    await dropDatabase(dbUrl);
  }
}

standalone().then(cluster).then(summary).then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
