import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import knex from 'knex';
import { createTestDatabase, describeWithBackend, type TestDatabase } from '@tabula/testing';
import { refreshCookie, resetTokenFromOutbox, uniqueEmail } from './auth-e2e.helpers';

const root = path.resolve(__dirname, '../..');
let database: TestDatabase;
const children: ChildProcess[] = [];
let gatewayUrl = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Starts one service as its own OS process, as `npm run start:cluster` does. */
function launch(name: string, env: NodeJS.ProcessEnv): void {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'services', name, 'src', 'main.ts')], { cwd: root, env, stdio: 'ignore' });
  children.push(child);
}

async function waitReady(url: string, deadline = Date.now() + 60_000): Promise<void> {
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready`);
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any, cookies: res.headers.getSetCookie() };
}
const meStatus = async (token: string) => (await fetch(`${gatewayUrl}/api/v1/auth/user/me`, { headers: { 'xc-auth': token } })).status;

describeWithBackend('redis', 'auth in cluster mode (gateway and auth as separate processes, Redis bus)', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    const [authPort, gatewayPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env, TABULA_MODE: 'cluster', DATABASE_URL: database.url, EVENT_BUS: 'redis', HOST: '127.0.0.1',
      SVC_INTERNAL_SECRET: randomBytes(48).toString('base64url'), SVC_JWT_SECRET: randomBytes(48).toString('base64url'),
      SVC_AUTH_RATE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:`, AUTH_SERVICE_URL: `http://127.0.0.1:${authPort}`,
      LOG_LEVEL: 'silent', OTEL_SDK_DISABLED: 'true',
    };
    launch('auth', { ...env, PORT: String(authPort) });
    await waitReady(`http://127.0.0.1:${authPort}/healthz`);
    launch('gateway', { ...env, PORT: String(gatewayPort) });
    gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitReady(`${gatewayUrl}/healthz`);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(undefined);
      child.once('exit', resolve);
      child.kill('SIGTERM');
    })));
    await database?.drop();
  });

  it('rotates refresh tokens and revokes the family on reuse', async () => {
    const signup = await post('/api/v1/auth/user/signup', { email: uniqueEmail('cluster'), password: 'password-1' });
    expect(signup.status).toBe(200);
    const first = refreshCookie(signup.cookies) as string;
    const rotated = await post('/api/v1/auth/token/refresh', {}, { cookie: `refresh_token=${first}` });
    expect(rotated.status).toBe(200);
    const second = refreshCookie(rotated.cookies) as string;
    expect(await meStatus(rotated.body.token)).toBe(200);
    expect((await post('/api/v1/auth/token/refresh', {}, { cookie: `refresh_token=${first}` })).status).toBe(401);
    expect((await post('/api/v1/auth/token/refresh', {}, { cookie: `refresh_token=${second}` })).status).toBe(401);
  });

  it('kills earlier JWTs after a password change and after a reset (cached principals dropped via the bus)', async () => {
    const email = uniqueEmail('changer');
    const { body } = await post('/api/v1/auth/user/signup', { email, password: 'password-1' });
    const other = (await post('/api/v1/auth/user/signin', { email, password: 'password-1' })).body.token as string;
    expect(await meStatus(body.token)).toBe(200);
    expect(await meStatus(other)).toBe(200);
    expect((await post('/api/v1/auth/password/change', { currentPassword: 'password-1', newPassword: 'password-2' }, { 'xc-auth': body.token })).status).toBe(200);
    expect(await meStatus(body.token)).toBe(401);
    const deadline = Date.now() + 5_000;
    while ((await meStatus(other)) !== 401 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await meStatus(other)).toBe(401);

    const fresh = (await post('/api/v1/auth/user/signin', { email, password: 'password-2' })).body.token as string;
    expect(await meStatus(fresh)).toBe(200);
    await post('/api/v1/auth/password/forgot', { email });
    const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
    try {
      const token = await resetTokenFromOutbox(db, email);
      expect((await post(`/api/v1/auth/password/reset/${token}`, { password: 'password-3' })).status).toBe(200);
    } finally {
      await db.destroy();
    }
    const until = Date.now() + 5_000;
    while ((await meStatus(fresh)) !== 401 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await meStatus(fresh)).toBe(401);
  });
});
