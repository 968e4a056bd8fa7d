import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { createTestDatabase, describeOnEachBus, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';
import { refreshCookie, resetTokenFromOutbox, uniqueEmail } from './auth-e2e.helpers';

let database: TestDatabase;
let cluster: TestCluster;
let gatewayUrl = '';

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any, cookies: res.headers.getSetCookie() };
}
const meStatus = async (token: string) => (await fetch(`${gatewayUrl}/api/v1/auth/user/me`, { headers: { 'xc-auth': token } })).status;

describeOnEachBus('auth in cluster mode (gateway and auth as separate processes)', (bus) => {
  beforeAll(async () => {
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth'], database.url, { EVENT_BUS: bus, SVC_AUTH_RATE_KEY_PREFIX: `test:${randomBytes(6).toString('hex')}:` });
    gatewayUrl = cluster.gatewayUrl;
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
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
