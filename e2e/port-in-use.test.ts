import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { freePort, entryArgs } from '@tabula/testing';

/**
 * Issue 9 item 6: a port already in use stops start-up at once, before the
 * embedded PostgreSQL and migrations, with one line naming the port and the
 * setting to change (standalone and start:cluster).
 */
const root = path.resolve(__dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-port-e2e-'));
let blocker: net.Server;
let taken = 0;

function run(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, entryArgs(`scripts/${script}`), {
    cwd: root, env: { ...process.env, LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true', ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => { stderr += chunk; });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr, ms: Date.now() - started })));
}

beforeAll(async () => {
  taken = await freePort();
  blocker = net.createServer().listen(taken, '0.0.0.0');
  await new Promise((resolve) => blocker.once('listening', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a port already in use', () => {
  it('stops standalone before PostgreSQL, in one line naming PORT', async () => {
    const env: NodeJS.ProcessEnv = { PORT: String(taken), DATA_DIR: path.join(dataDir, 'standalone') };
    const result = await run('start-standalone.ts', { ...env, DATABASE_URL: '' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`Port ${taken} is already in use by another process: stop it or set PORT to a free port`);
    expect(existsSync(path.join(dataDir, 'standalone', 'pg'))).toBe(false);
  }, 60_000);

  it('stops start:cluster before any service starts, naming the service port setting', async () => {
    const result = await run('start-cluster.ts', {
      PORT: String(await freePort()), AUTH_PORT: String(taken), DATA_DIR: path.join(dataDir, 'cluster'),
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres', REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`Port ${taken} is already in use by another process: stop it or set AUTH_PORT or SERVICE_PORT_BASE to a free port`);
  }, 60_000);
});
