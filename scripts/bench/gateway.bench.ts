/**
 * Gateway overhead: req/s and p50/p99 of a trivial authenticated route
 * (`GET /api/v1/auth/user/me`) through the gateway vs straight to the auth
 * service (same identity, forged as the gateway would), in standalone and in
 * cluster mode, measured in one run. Needs DATABASE_URL (and REDIS_URL for the
 * cluster part). Usage: npm run bench:gateway [-- --seconds 5 --concurrency 16]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { signIdentity, type Principal } from '@tabula/auth';
import { printTable, runLoad } from './load';
import { startStandaloneChild } from './standalone-child';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 5);
const concurrency = arg('concurrency', 16);

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
  const server = await startStandaloneChild({ ...process.env, DATABASE_URL: await freshDatabase(), DATA_DIR: path.resolve('data/bench') }, 'auth');
  try {
    const { token, principal } = await signup(server.url);
    const identity = signIdentity(principal, server.secret);
    const rows = [
      await runLoad('auth service directly', `${server.directUrl}/api/v1/auth/user/me`, { 'x-tabula-identity': identity }, concurrency, seconds * 1000),
      await runLoad('through the gateway', `${server.url}/api/v1/auth/user/me`, { 'xc-auth': token }, concurrency, seconds * 1000),
    ];
    printTable(`standalone mode (one server process), ${concurrency} connections, ${seconds} s each`, rows);
  } finally {
    await server.stop();
  }
}

async function cluster(): Promise<void> {
  if (!process.env.REDIS_URL) { console.log('\ncluster mode skipped: REDIS_URL not set'); return; }
  const secret = randomBytes(48).toString('base64url');
  const env = { ...process.env, DATABASE_URL: await freshDatabase(), PORT: '18480', SVC_INTERNAL_SECRET: secret, SVC_JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', CLUSTER_RESTART: 'false', DATA_DIR: path.resolve('data/bench-cluster') };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '..', 'start-cluster.ts')], { env, stdio: 'ignore' });
  try {
    await waitFor('http://127.0.0.1:18480/api/v1/health');
    await waitFor('http://127.0.0.1:8101/readyz');
    const { token, principal } = await signup('http://127.0.0.1:18480');
    const identity = signIdentity(principal, secret);
    const rows = [
      await runLoad('auth service directly', 'http://127.0.0.1:8101/api/v1/auth/user/me', { 'x-tabula-identity': identity }, concurrency, seconds * 1000),
      await runLoad('through the gateway', 'http://127.0.0.1:18480/api/v1/auth/user/me', { 'xc-auth': token }, concurrency, seconds * 1000),
    ];
    printTable(`cluster mode (separate processes), ${concurrency} connections, ${seconds} s each`, rows);
  } finally {
    child.kill('SIGTERM');
  }
}

standalone().then(cluster).then(() => process.exit(0)).catch((err) => { console.error(err); process.exit(1); });
