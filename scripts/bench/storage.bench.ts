/**
 * Storage streaming: RSS of the storage process (its own OS process, cluster
 * topology: auth, storage and the gateway as separate processes, Redis bus)
 * sampled every 50 ms while N concurrent 20 MiB uploads stream through the
 * gateway; prints idle, peak and growth of RSS and the upload throughput.
 * Needs DATABASE_URL and REDIS_URL. Ports 9250-9252 (override with --port).
 * Usage: npm run bench:storage [-- --concurrency 10 --rounds 3 --mib 20]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { signup } from '../../e2e/storage-e2e.helpers';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const concurrency = arg('concurrency', 10);
const rounds = arg('rounds', 3);
const mib = arg('mib', 20);
const firstPort = arg('port', 9250);
const root = path.resolve(__dirname, '../..');

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL is required');
  const name = `tabula_bench_storage_${Date.now()}`;
  const run = async (sql: string) => { const c = new Client({ connectionString: admin }); await c.connect(); await c.query(sql); await c.end(); };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy`);
}

/** Resident set size of a process in bytes (Linux /proc). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MB).toFixed(1);

async function startProcesses(databaseUrl: string, dataDir: string): Promise<{ children: ChildProcess[]; storagePid: number; gatewayPid: number; gatewayUrl: string }> {
  const ports = { auth: firstPort, storage: firstPort + 1, gateway: firstPort + 2 };
  const env: NodeJS.ProcessEnv = {
    ...process.env, TABULA_MODE: 'cluster', DATABASE_URL: databaseUrl, EVENT_BUS: 'redis', HOST: '127.0.0.1', DATA_DIR: dataDir,
    SVC_INTERNAL_SECRET: randomBytes(32).toString('base64url'), SVC_JWT_SECRET: randomBytes(32).toString('base64url'),
    SVC_ENCRYPTION_KEYS: randomBytes(32).toString('base64url'), LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true', AUTH_SERVICE_URL: `http://127.0.0.1:${ports.auth}`, STORAGE_SERVICE_URL: `http://127.0.0.1:${ports.storage}`,
  };
  const children: ChildProcess[] = [];
  for (const [name, port] of Object.entries(ports)) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')], { cwd: root, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
    children.push(child);
    await waitHealthy(`http://127.0.0.1:${port}/healthz`);
  }
  return { children, storagePid: children[1].pid!, gatewayPid: children[2].pid!, gatewayUrl: `http://127.0.0.1:${ports.gateway}` };
}

async function uploadOnce(url: string, token: string, bytes: Buffer, i: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), `bench-${i}.bin`);
  const res = await fetch(`${url}/api/v1/db/storage/upload`, { method: 'POST', headers: { 'xc-auth': token }, body: form });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

async function main(): Promise<void> {
  const db = await freshDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-bench-storage-'));
  const { children, storagePid, gatewayPid, gatewayUrl } = await startProcesses(db.url, dataDir);
  try {
    const token = await signup(gatewayUrl, 'bench-storage@example.com');
    const bytes = randomBytes(mib * MB);
    for (let i = 0; i < 3; i++) await uploadOnce(gatewayUrl, token, bytes.subarray(0, MB), i); // warm-up: code paths loaded, pools open
    await new Promise((r) => setTimeout(r, 1000));
    const idle = rssOf(storagePid);
    const gatewayIdle = rssOf(gatewayPid);
    let gatewayPeak = gatewayIdle;
    console.log(`storage pid ${storagePid}: idle RSS ${mb(idle)} MB; ${rounds} rounds of ${concurrency} concurrent ${mib} MiB uploads through the gateway (cluster mode, local disk backend)`);
    let worstPeak = idle;
    for (let round = 1; round <= rounds; round++) {
      let peak = 0;
      const samples: number[] = [];
      const timer = setInterval(() => {
        const r = rssOf(storagePid);
        samples.push(r);
        peak = Math.max(peak, r);
        gatewayPeak = Math.max(gatewayPeak, rssOf(gatewayPid));
      }, 50);
      const started = process.hrtime.bigint();
      await Promise.all(Array.from({ length: concurrency }, (_, i) => uploadOnce(gatewayUrl, token, bytes, i)));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      clearInterval(timer);
      worstPeak = Math.max(worstPeak, peak);
      const total = concurrency * mib;
      console.log(`round ${round}: ${total} MiB in ${seconds.toFixed(2)} s = ${(total / seconds).toFixed(1)} MiB/s; RSS samples ${samples.length}, min ${mb(Math.min(...samples))} MB, peak ${mb(peak)} MB, growth over idle ${mb(peak - idle)} MB`);
    }
    const growth = worstPeak - idle;
    console.log(`gateway (streams the bodies through): idle RSS ${mb(gatewayIdle)} MB, peak ${mb(gatewayPeak)} MB, growth ${mb(gatewayPeak - gatewayIdle)} MB`);
    console.log(`RESULT: idle ${mb(idle)} MB, worst peak ${mb(worstPeak)} MB, growth ${mb(growth)} MB (${growth <= 50 * MB ? 'within' : 'OVER'} the 50 MB budget)`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
