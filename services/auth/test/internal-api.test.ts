import request from 'supertest';
import type { Server } from 'node:http';
import http from 'node:http';
import { signIdentity, servicePrincipal, type Principal } from '@tabula/auth';
import { buildSharedPorts, loadPlatformConfig, prepareService, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { authService } from '../src/service';

const INTERNAL = 'internal-secret-for-the-auth-service-tests-0123456789';
let database: TestDatabase;
let shared: ReturnType<typeof buildSharedPorts>;
let server: Server;
let workers: Worker[] = [];

const asService = () => ({ 'x-tabula-identity': signIdentity(servicePrincipal('meta'), INTERNAL) });
const asUser = (p: Omit<Principal, 'kind' | 'roles'> & { roles?: string[] }) =>
  ({ 'x-tabula-identity': signIdentity({ kind: 'user', roles: [], ...p }, INTERNAL) });

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-for-auth-tests', EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: '/tmp' } as NodeJS.ProcessEnv;
  const platform = loadPlatformConfig(env);
  shared = buildSharedPorts({ platform, databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'auth' });
  const prepared = await prepareService(authService, shared, env);
  workers = await prepared.start();
  server = http.createServer(prepared.app.callback());
});
afterAll(async () => {
  await stopWorkers(workers, () => undefined);
  await shared?.close();
  await database?.drop();
});

describe('auth internal API', () => {
  it('is closed to callers without a service identity', async () => {
    expect((await request(server).get('/internal/users/us1')).status).toBe(403);
    expect((await request(server).get('/internal/users/us1').set(asUser({ id: 'us1' }))).status).toBe(403);
    expect((await request(server).get('/internal/users/us1').set({ 'x-tabula-identity': 'forged' })).status).toBe(401);
  });

  it('authenticates JWTs and API tokens into principals, and forgets them when revoked', async () => {
    const signup = await request(server).post('/api/v1/auth/user/signup').send({ email: 'Int@Example.com', password: 'password-1' });
    expect(signup.status).toBe(200);
    const jwtRes = await request(server).post('/internal/authenticate').set(asService()).send({ token: signup.body.token, kind: 'jwt' });
    expect(jwtRes.body.principal).toEqual({ kind: 'user', id: expect.stringMatching(/^us/), email: 'int@example.com', roles: ['org-level-creator', 'super'], via: 'jwt' });
    const user = jwtRes.body.principal as Principal;

    const created = await request(server).post('/api/v1/db/meta/projects/pa/api-tokens').set(asUser({ id: user.id, roles: user.roles, via: 'jwt' })).send({ description: 'x' });
    expect(created.status).toBe(200);
    const tokenRes = await request(server).post('/internal/authenticate').set(asService()).send({ token: created.body.token, kind: 'api-token' });
    expect(tokenRes.body.principal).toMatchObject({ id: user.id, via: 'api-token', tokenId: created.body.id, baseScope: 'pa' });
    expect((await request(server).post('/internal/authenticate').set(asService()).send({ token: created.body.token, kind: 'jwt' })).status).toBe(401);

    await request(server).post('/api/v1/auth/user/signout').set(asUser({ id: user.id, via: 'jwt' }));
    expect((await request(server).post('/internal/authenticate').set(asService()).send({ token: signup.body.token, kind: 'jwt' })).status).toBe(401);
    expect((await request(server).post('/internal/authenticate').set(asService()).send({ token: 'x', kind: 'magic' })).status).toBe(400);
  });

  it('stores base memberships and summarises users', async () => {
    const signup = await request(server).post('/api/v1/auth/user/signup').send({ email: 'member@example.com', password: 'password-1' });
    const principal = (await request(server).post('/internal/authenticate').set(asService()).send({ token: signup.body.token, kind: 'jwt' })).body.principal as Principal;
    const path = `/internal/bases/pbase1/members/${principal.id}`;
    expect((await request(server).get(path).set(asService())).status).toBe(404);
    expect((await request(server).put(path).set(asService()).send({ role: 'owner' })).body).toEqual({ role: 'owner' });
    expect((await request(server).get(path).set(asService())).body).toEqual({ role: 'owner' });
    expect((await request(server).put(path).set(asService()).send({ role: 'emperor' })).status).toBe(400);
    expect((await request(server).put('/internal/bases/pbase1/members/us_nobody').set(asService()).send({ role: 'viewer' })).status).toBe(404);
    const summary = await request(server).get(`/internal/users/${principal.id}`).set(asService());
    expect(summary.body).toEqual({ id: principal.id, email: 'member@example.com', firstname: null, lastname: null });
    expect((await request(server).get('/internal/users/us_nobody').set(asService())).status).toBe(404);
  });
});

describe('meta.base.deleted', () => {
  it('removes the base memberships, pending invitations and base-scoped tokens, once', async () => {
    const { BaseChangedSchema, ChangeAction, encodeEvent, topics } = await import('@tabula/contracts');
    const signup = await request(server).post('/api/v1/auth/user/signup').send({ email: 'gone@example.com', password: 'password-1' });
    const principal = (await request(server).post('/internal/authenticate').set(asService()).send({ token: signup.body.token, kind: 'jwt' })).body.principal as Principal;
    const path = `/internal/bases/pgone/members/${principal.id}`;
    await request(server).put(path).set(asService()).send({ role: 'owner' });
    // A super identity needs no membership lookup through the (absent) service network.
    const token = await request(server).post('/api/v1/db/meta/projects/pgone/api-tokens').set(asUser({ id: principal.id, roles: ['super'], via: 'jwt' })).send({});
    expect(token.status).toBe(200);
    const invitations = () => shared.db('auth.invitations').orderBy('base_id').pluck('base_id');
    await shared.db('auth.invitations').insert([{ email: 'later@example.com', base_id: 'pgone', role: 'viewer' }, { email: 'later@example.com', base_id: 'pkept', role: 'viewer' }]);
    const payload = encodeEvent(BaseChangedSchema, { eventId: 'e1', action: ChangeAction.DELETED, baseId: 'pgone' });
    await shared.bus.publish([{ topic: topics.meta, key: 'pgone', type: 'meta.base.deleted', payload }]);
    const deadline = Date.now() + 5000;
    while ((await request(server).get(path).set(asService())).status !== 404 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await request(server).get(path).set(asService())).status).toBe(404);
    expect((await request(server).post('/internal/authenticate').set(asService()).send({ token: token.body.token, kind: 'api-token' })).status).toBe(401);
    expect(await invitations()).toEqual(['pkept']);
  });
});
