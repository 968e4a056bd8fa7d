import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, waitHealthy, entryArgs } from '@tabula/testing';

/**
 * Issue 9 item 7, on a real `npm start` process (embedded PostgreSQL, no
 * DATABASE_URL): SIGTERM while 6 bulk inserts of 1000 rows (~2 MB each) are in
 * flight. Every request either completes 200 or is refused before it started
 * (no 500, no connection cut); the process logs "stopped" and exits 0; after a
 * restart the table holds exactly the acknowledged rows.
 */
const root = path.resolve(__dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-shutdown-e2e-'));
let port = 0;
let token = '';
let baseId = '';

interface Running { child: ChildProcess; output: () => string; exited: Promise<number | null> }

async function startStandalone(): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, EVENT_BUS: 'memory', LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true' };
  for (const name of ['DATABASE_URL', 'DATA_DATABASE_URL', 'REDIS_URL', 'TABULA_MODE', 'npm_lifecycle_event']) delete env[name];
  const child = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => { output += chunk; });
  child.stderr?.on('data', (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitHealthy(`http://127.0.0.1:${port}/healthz`, 90_000);
  return { child, output: () => output, exited };
}

/** One request on its own connection; `onSent` fires once the whole body is written. */
function post(pathname: string, body: unknown, onSent?: () => void): Promise<{ status: number; body: any } | { error: string }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method: 'POST', agent: false,
      headers: { 'content-type': 'application/json', 'content-length': payload.length, ...(token ? { 'xc-auth': token } : {}) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.on('finish', () => onSent?.());
    req.end(payload);
  });
}

async function count(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/db/data/noco/${baseId}/Items?limit=1`, { headers: { 'xc-auth': token } });
  return ((await res.json()) as { pageInfo: { totalRows: number } }).pageInfo.totalRows;
}

describe('standalone SIGTERM during bulk inserts (real process, embedded PostgreSQL)', () => {
  let running: Running | undefined;

  beforeAll(async () => {
    port = await freePort();
    running = await startStandalone();
    const signup = await post('/api/v1/auth/user/signup', { email: 'drain@example.com', password: 'Password123!' });
    token = (signup as { body: any }).body.token;
    baseId = ((await post('/api/v1/db/meta/projects/', { title: 'Drain' })) as { body: any }).body.id;
    await post(`/api/v1/db/meta/projects/${baseId}/tables`, {
      title: 'Items', table_name: 'items', columns: [
        { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
        { column_name: 'name', title: 'Name', uidt: 'LongText' },
      ],
    });
  }, 180_000);

  afterAll(async () => {
    if (running && running.child.exitCode === null) { running.child.kill('SIGKILL'); await running.exited; }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every accepted request, refuses the rest, exits 0 and keeps exactly the acknowledged rows', async () => {
    const filler = 'x'.repeat(2000);
    const rows = (batch: number) => Array.from({ length: 1000 }, (_, i) => ({ Name: `b${batch}-${i}-${filler}` }));
    let signalled = false;
    const current = running as Running;
    const sigterm = () => {
      if (signalled) return;
      signalled = true;
      setTimeout(() => current.child.kill('SIGTERM'), 20);
    };
    const results = await Promise.all(Array.from({ length: 6 }, (_, b) => post(`/api/v1/db/data/bulk/noco/${baseId}/Items`, rows(b), sigterm)));
    const code = await current.exited;
    const outcomes = results.map((r) => ('error' in r ? r.error : r.status));
    console.log(`SIGTERM during 6 bulk inserts: ${JSON.stringify(outcomes)}, exit ${code}`);
    // Refused: ECONNREFUSED once the listening socket is closed; ECONNRESET for a connection
    // still queued in the kernel's accept backlog (or accepted with its request unread) at that
    // moment, which the kernel (or Node's close) resets. Neither was handled: the row count below
    // shows that only acknowledged requests wrote anything.
    for (const outcome of outcomes) expect([200, 'ECONNREFUSED', 'ECONNRESET']).toContain(outcome);
    const acknowledged = results.filter((r) => 'status' in r && r.status === 200).length;
    expect(acknowledged).toBeGreaterThan(0);
    expect(code).toBe(0);
    expect(current.output()).toMatch(/"msg":"stopped"/);

    running = await startStandalone();
    expect(await count()).toBe(acknowledged * 1000);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 240_000);
});
