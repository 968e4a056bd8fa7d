import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, freePort, waitHealthy, type TestDatabase, entryArgs } from '@tabula/testing';

/** Issue 17 defect 6: `npm start`'s own log, as the local user sees it. */
const root = path.resolve(__dirname, '../..');
let database: TestDatabase;
let child: ChildProcess;
let dataDir: string;
let url: string;
let output = '';

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-sec-log-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TABULA_MODE: 'standalone', DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true', EVENT_BUS: 'memory' },
  });
  child.stdout?.on('data', (c: Buffer) => { output += c.toString('utf8'); });
  child.stderr?.on('data', (c: Buffer) => { output += c.toString('utf8'); });
  await waitHealthy(`${url}/api/v1/health`, 90_000);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('security: standalone log', () => {
  it('defect 6: a password-reset mail is logged as written to the outbox (with how to read it), never with its token', async () => {
    const email = 'log-reader@example.com';
    const post = (p: string, body: unknown) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/api/v1/auth/user/signup', { email, password: 'Password123!' })).status).toBe(200);
    expect((await post('/api/v1/auth/password/forgot', { email })).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!output.includes('mail_outbox') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const line = output.split('\n').find((l) => l.includes('mail_outbox')) ?? '';
    expect(line).toContain('SELECT body FROM auth.mail_outbox WHERE id =');
    expect(output).not.toMatch(/Reset token/);
    expect(output).not.toMatch(/password\/reset\/[A-Za-z0-9_-]{16,}/);
  });
});
