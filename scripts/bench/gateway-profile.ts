/**
 * Per-request CPU profile of the cluster gateway path: starts the local cluster
 * with every service process under `--cpu-prof`, loads one route through the
 * gateway, stops the cluster (profiles are written on exit) and prints the top
 * self-time frames of the gateway and of the service that answered, with the
 * CPU milliseconds each process spent per request.
 * Needs DATABASE_URL and REDIS_URL. Loopback only.
 * `insert` posts one record per request and also prints hooks and meta (the
 * services a write reaches besides data).
 * Usage: tsx scripts/bench/gateway-profile.ts [me|read|insert] [--seconds 8 --concurrency 16 --port-base 18600]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runLoad, runOps, type LoadResult } from './load';
import { poster } from './records-load';
import { createTable, dropDatabase, fillTable, freshDatabase, sampleBody, signup, waitFor } from './records-fixture';
import { clusterArgs } from './bundled';

const which = process.argv[2] ?? 'me';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 8);
const concurrency = arg('concurrency', 16);
const portBase = arg('port-base', 18600);

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; endTime: number }

/** The load window, as microseconds before each profile's end (profiles end when the process exits). */
interface Window { fromEndUs: number; toEndUs: number }

/** Self time per function over the samples of the load window, top 25, and the CPU ms that were not idle. */
function summarise(name: string, profile: Profile, requests: number, window: Window): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const at: number[] = [];
  profile.timeDeltas.reduce((t, d, i) => { at[i] = t + d; return at[i]; }, 0);
  const last = at[at.length - 1] ?? 0;
  profile.samples.forEach((id, i) => {
    const beforeEnd = last - at[i];
    if (beforeEnd > window.fromEndUs || beforeEnd < window.toEndUs) return;
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(services|libs)\//, '$1/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i]);
  });
  const busy = [...self.entries()].filter(([k]) => !k.startsWith('(idle)') && !k.startsWith('(program)')).reduce((a, [, t]) => a + t, 0);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${name}: ${(busy / 1000).toFixed(0)} ms busy (JS + GC) of ${(total / 1000).toFixed(0)} ms, ${(busy / 1000 / requests).toFixed(3)} ms per request (load window only)`);
  for (const [key, t] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((t / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
}

function serviceOf(profile: Profile): string {
  for (const n of profile.nodes) {
    const m = /services\/([a-z]+)\/src\/main\.ts/.exec(n.callFrame.url) ?? /dist\/([a-z]+)\/main\.js/.exec(n.callFrame.url);
    if (m) return m[1];
  }
  return 'launcher';
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-profile-'));
  const dbUrl = await freshDatabase('gwprofile');
  const port = portBase;
  const env = {
    ...process.env, DATABASE_URL: dbUrl, PORT: String(port), SERVICE_PORT_BASE: String(portBase + 10), SVC_INTERNAL_SECRET: randomBytes(48).toString('base64url'),
    SVC_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', CLUSTER_RESTART: 'false',
    DATA_DIR: path.resolve('data/bench-profile'), CLUSTER_NODE_FLAGS: `--max-semi-space-size=16 --cpu-prof --cpu-prof-dir=${dir}`,
  };
  const child = spawn(process.execPath, clusterArgs(), { env, stdio: 'ignore' });
  let requests = 0;
  let loadEnded = 0;
  let window: Window = { fromEndUs: 0, toEndUs: 0 };
  try {
    const gateway = `http://127.0.0.1:${port}`;
    await waitFor(`${gateway}/api/v1/health`);
    for (const offset of [1, 2, 3]) await waitFor(`http://127.0.0.1:${portBase + 10 + offset}/readyz`);
    const { token } = await signup(gateway);
    let route = '/api/v1/auth/user/me';
    if (which === 'read' || which === 'insert') {
      const table = await createTable(gateway, token, 'GwProfile');
      await fillTable(dbUrl, table, 1000);
      route = `/api/v1/db/data/noco/${table.baseId}/${table.title}${which === 'read' ? '/42' : ''}`;
    }
    let result: LoadResult;
    if (which === 'insert') {
      const p = poster(`${gateway}${route}`, { 'xc-auth': token }, concurrency);
      try {
        await runOps('warm-up', (i) => p.post(sampleBody(i)), concurrency, 2000);
        result = await runOps(`through the gateway: POST ${route}`, (i) => p.post(sampleBody(i)), concurrency, seconds * 1000);
      } finally {
        await p.close();
      }
    } else {
      await runLoad('warm-up', `${gateway}${route}`, { 'xc-auth': token }, concurrency, 2000);
      result = await runLoad(`through the gateway: ${route}`, `${gateway}${route}`, { 'xc-auth': token }, concurrency, seconds * 1000);
    }
    loadEnded = Date.now();
    requests = result.requests;
    console.log(result);
  } finally {
    await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
    // Each service exits at about the launcher's exit: the window is the load, counted back from there (a little skew at its edges).
    const gap = (Date.now() - loadEnded) * 1000;
    window = { fromEndUs: gap + seconds * 1e6 - 250_000, toEndUs: gap + 250_000 };
    await dropDatabase(dbUrl);
  }
  const wanted = new Set(['gateway', ...(which === 'read' ? ['data'] : which === 'insert' ? ['data', 'hooks', 'meta'] : ['auth'])]);
  for (const file of readdirSync(dir)) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
    const service = serviceOf(profile);
    if (wanted.has(service)) summarise(service, profile, requests, window);
  }
  console.log(`\nprofiles: ${dir}`);
}

main().then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
