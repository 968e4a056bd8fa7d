import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { backendUrl, createTestDatabase, describeOnEachBus, freePort, freePortBase, waitHealthy, type TestDatabase, entryArgs } from '@tabula/testing';
import { clusterServiceOffsets } from '@tabula/runtime';

/**
 * Issue 9 items 8, 10, 12 on the real launcher (`start:cluster`, from source):
 * Ctrl-C to the process group and SIGTERM to the launcher alone both drain
 * every service (each logs "stopped", exits 0) and the launcher exits 0; a
 * killed launcher leaves no child behind; ports come from SERVICE_PORT_BASE /
 * <NAME>_PORT and a set *_SERVICE_URL is kept; the generated secrets live
 * under DATA_DIR, so a restart keeps a user signed in.
 */
const root = path.resolve(__dirname, '..');
let dataDir = '';
let eventBus = 'redis';
const names = Object.keys(clusterServiceOffsets);
let database: TestDatabase;
let gatewayPort = 0;
let base = 0;
let authPort = 0;
let metaPort = 0;

interface Launched { child: ChildProcess; output: () => string; exited: Promise<number | null>; pids: () => number[] }

function serviceUrl(name: string): string {
  if (name === 'auth') return `http://127.0.0.1:${authPort}`;
  if (name === 'meta') return `http://127.0.0.1:${metaPort}`;
  return `http://127.0.0.1:${base + names.indexOf(name) + 1}`;
}

async function launch(): Promise<Launched> {
  const env: NodeJS.ProcessEnv = {
    ...process.env, EVENT_BUS: eventBus, KAFKA_SESSION_TIMEOUT_MS: '8000', EVENT_TOPIC_PREFIX: path.basename(dataDir).replace(/[^A-Za-z0-9_-]/g, ''), DATA_DIR: dataDir,
    DATABASE_URL: database.url, PORT: String(gatewayPort), SERVICE_PORT_BASE: String(base),
    AUTH_PORT: String(authPort), META_SERVICE_URL: `http://127.0.0.1:${metaPort}`, LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true',
  };
  for (const name of ['SVC_JWT_SECRET', 'SVC_INTERNAL_SECRET', 'SVC_ENCRYPTION_KEYS', 'TABULA_MODE', 'npm_lifecycle_event', 'AUTH_SERVICE_URL']) delete env[name];
  const child = spawn(process.execPath, entryArgs('scripts/start-cluster.ts'), { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => { output += chunk; });
  child.stderr?.on('data', (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitHealthy(`http://127.0.0.1:${gatewayPort}/healthz`, 120_000);
  for (const name of names) await waitHealthy(`${serviceUrl(name)}/healthz`, 120_000);
  const pids = () => [...output.matchAll(/\[cluster\] \w+ pid (\d+)/g)].map((m) => Number(m[1]));
  return { child, output: () => output, exited, pids };
}

/** The launcher exits 0 (every service stopped cleanly); otherwise the failure shows the launcher's lines. */
async function expectCleanExit(launched: Launched): Promise<void> {
  const code = await launched.exited;
  if (code !== 0) throw new Error(`launcher exited ${code}; its output:\n${launched.output().split('\n').filter((l) => !l.startsWith('{') || /"level":"(warn|error|fatal)"/.test(l)).join('\n')}`);
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function allGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pids.some(alive)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

async function me(token: string): Promise<{ status: number; email?: string }> {
  const res = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/auth/user/me`, { headers: { 'xc-auth': token } });
  return { status: res.status, email: ((await res.json()) as { email?: string }).email };
}

/** Drained means: every service and the gateway logged "stopped", none was forced, the launcher said "stopped". */
function expectDrained(output: string): void {
  expect(output.match(/"msg":"stopped"/g)?.length).toBe(names.length + 1); // every service and the gateway
  expect(output).not.toMatch(/second signal|killing/);
  expect(output).toMatch(/\[cluster\] stopped\n/);
}

describeOnEachBus('cluster launcher (start:cluster, real processes)', (bus) => {
  let running: Launched | undefined;

  beforeAll(async () => {
    eventBus = bus;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-launcher-e2e-'));
    database = await createTestDatabase();
    gatewayPort = await freePort();
    base = await freePortBase(names.map((_, i) => i + 1));
    authPort = await freePort();
    metaPort = await freePort();
    expect(backendUrl('redis')).toBeDefined();
  });

  afterAll(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    for (const pid of running?.pids() ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  });

  it('Ctrl-C drains every service; a restart keeps the user signed in; SIGTERM to the launcher alone drains too', async () => {
    running = await launch();
    const signup = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/auth/user/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'launcher@example.com', password: 'Password123!' }),
    });
    const { token } = (await signup.json()) as { token: string };
    expect(await me(token)).toEqual({ status: 200, email: 'launcher@example.com' });

    process.kill(-(running.child.pid as number), 'SIGINT'); // a terminal's Ctrl-C: the whole foreground group
    await expectCleanExit(running);
    expectDrained(running.output());
    expect(await allGone(running.pids(), 5_000)).toBe(true);

    running = await launch();
    expect(await me(token)).toEqual({ status: 200, email: 'launcher@example.com' });
    running.child.kill('SIGTERM'); // the launcher's pid alone
    await expectCleanExit(running);
    expectDrained(running.output());
    expect(await allGone(running.pids(), 5_000)).toBe(true);
  }, 400_000);

  it('children do not outlive a killed launcher', async () => {
    running = await launch();
    const pids = running.pids();
    expect(pids).toHaveLength(names.length + 1);
    running.child.kill('SIGKILL');
    await running.exited;
    expect(await allGone(pids, 40_000)).toBe(true);
  }, 200_000);
});
