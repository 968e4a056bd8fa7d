import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { entryArgs, freePort } from '@tabula/testing';

/**
 * Issue 34 "One instance per data folder": a second `npm start` on the same
 * DATA_DIR refuses with one line naming the running Tabula (pid and port) and
 * leaves the first one's embedded PostgreSQL alone; a lock whose process is gone
 * is taken over; a server whose database goes away fails /readyz and
 * /api/v1/health and logs it once per READINESS_LOG_INTERVAL_MS, not per poll.
 */
const root = path.resolve(__dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-lock-e2e-'));
const children: ChildProcess[] = [];

interface Run { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number | null> }

function start(port: number, extra: NodeJS.ProcessEnv = {}): Run {
  const child = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => { out += c; });
  child.stderr?.on('data', (c) => { err += c; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const status = async (url: string) => (await fetch(url)).status;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('one Tabula per DATA_DIR', () => {
  let first: Run;
  let firstPort = 0;

  it('a second start on the same DATA_DIR refuses in one line naming the running pid and port; the first keeps working', async () => {
    firstPort = await freePort();
    first = start(firstPort);
    await until('the first instance runs', () => first.out().includes('Tabula is running'));
    // the start line names the URL and the API docs
    expect(first.out()).toContain(`"msg":"Tabula is running on http://localhost:${firstPort} (API docs: http://localhost:${firstPort}/api/docs)"`);
    const lock = JSON.parse(readFileSync(path.join(dataDir, 'tabula.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: first.child.pid, port: firstPort });

    const second = start(await freePort());
    expect(await second.exited).toBe(1);
    expect(second.err().trim()).toBe(`DATA_DIR ${dataDir} is in use by Tabula (pid ${first.child.pid}, port ${firstPort}): stop it or set another DATA_DIR`);
    expect(second.out()).not.toContain('starting embedded PostgreSQL');

    // the first one's PostgreSQL is untouched: health and an API call that writes still answer
    expect(await status(`http://127.0.0.1:${firstPort}/api/v1/health`)).toBe(200);
    const signUp = await fetch(`http://127.0.0.1:${firstPort}/api/v1/auth/user/signup`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'lock@example.com', password: 'Password-123456' }),
    });
    expect(signUp.status).toBe(200);
  }, 180_000);

  it('a database that goes away fails /readyz and /api/v1/health, logged once per interval (not per poll), all lines JSON', async () => {
    const postmaster = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const before = first.out().length;
    const beforeErr = first.err().length;
    process.kill(postmaster, 'SIGINT');
    await until('readyz fails', async () => (await status(`http://127.0.0.1:${firstPort}/readyz`)) === 503, 30_000);
    const answers = new Set<number>();
    for (let i = 0; i < 30; i += 1) {
      answers.add(await status(`http://127.0.0.1:${firstPort}/readyz`));
      answers.add(await status(`http://127.0.0.1:${firstPort}/api/v1/health`));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect([...answers]).toEqual([503]);
    await new Promise((r) => setTimeout(r, 1500)); // pollers and relays retry meanwhile
    const lines = [...first.out().slice(before).split('\n'), ...first.err().slice(beforeErr).split('\n')].filter(Boolean);
    expect(lines.filter((l) => l.includes('database unavailable'))).toHaveLength(1);
    const notJson = lines.filter((l) => { try { JSON.parse(l); return false; } catch { return true; } });
    expect(notJson).toEqual([]);
    // said once per interval, not per poll: no warning or error repeats (same service, message and cause)
    const problems = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 'warn' || l.level === 'error' || l.level === 'fatal');
    const keys = problems.map((l) => `${l.service} | ${l.msg} | ${typeof l.err === 'object' ? l.err?.message : l.err}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    expect(problems.length).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    await first.exited;
  }, 120_000);

  it('a lock left by a process that is gone is taken over', async () => {
    writeFileSync(path.join(dataDir, 'tabula.lock'), JSON.stringify({ pid: 2 ** 22 + 17, port: 1 }));
    const port = await freePort();
    const again = start(port);
    await until('the instance runs', () => again.out().includes('Tabula is running'));
    expect(JSON.parse(readFileSync(path.join(dataDir, 'tabula.lock'), 'utf8'))).toMatchObject({ pid: again.child.pid, port });
    expect(await status(`http://127.0.0.1:${port}/api/v1/health`)).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);
});
