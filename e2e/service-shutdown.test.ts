import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { backendUrl, createTestDatabase, describeWithBackend, entryArgs, freePort, type TestDatabase } from '@tabula/testing';

/**
 * A service process (cluster mode, one pod) that gets SIGTERM as soon as its
 * /healthz answers, while its workers may still be starting: it finishes
 * start-up, drains and exits 0. (Its shutdown handler is registered before
 * it listens; before, a SIGTERM in that window killed it with the signal, and
 * `start:cluster` then reported "a service did not stop cleanly".)
 */
describeWithBackend('redis', 'service process: SIGTERM right after /healthz answers', () => {
  let database: TestDatabase;
  beforeAll(async () => { database = await createTestDatabase(); });
  afterAll(async () => { await database?.drop(); });

  it.each(['auth', 'data', 'hooks'])('%s exits 0 after draining', async (name) => {
    const port = await freePort();
    const child = spawn(process.execPath, entryArgs(`services/${name}/src/main.ts`), {
      cwd: path.resolve(__dirname, '..'),
      env: {
        ...process.env, TABULA_MODE: 'cluster', DATABASE_URL: database.url, EVENT_BUS: 'redis', REDIS_URL: backendUrl('redis'),
        EVENT_TOPIC_PREFIX: `t${randomBytes(5).toString('hex')}`, SVC_INTERNAL_SECRET: randomBytes(48).toString('base64url'),
        SVC_JWT_SECRET: randomBytes(48).toString('base64url'), SVC_ENCRYPTION_KEYS: randomBytes(32).toString('base64url'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', OTEL_SDK_DISABLED: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => { output += c; });
    child.stderr.on('data', (c) => { output += c; });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`${name} never answered /healthz:\n${output}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output).toContain('"msg":"stopped"');
  }, 90_000);
});
