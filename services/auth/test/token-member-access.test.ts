import http from 'node:http';
import type { Server } from 'node:http';
import request from 'supertest';
import { signIdentity, servicePrincipal, type Principal } from '@tabula/auth';
import { LocalServiceClient } from '@tabula/http';
import { buildSharedPorts, loadPlatformConfig, prepareService, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { authService } from '../src/service';

/**
 * The permissions the token and member contracts declare, through the real
 * guard: base tokens need `token.write`, members `members.read` /
 * `members.write` in the base; org tokens are their maker's (super manages
 * all); every API token is refused on the session-only token endpoints.
 */
const INTERNAL = 'internal-secret-for-the-auth-access-tests-0123456789';
const BASE = 'pacc';
let database: TestDatabase;
let shared: ReturnType<typeof buildSharedPorts>;
let server: Server;
let workers: Worker[] = [];
const people: Record<'admin' | 'owner' | 'creator' | 'editor' | 'viewer' | 'stranger', Principal> = {} as never;

const asService = () => ({ 'x-tabula-identity': signIdentity(servicePrincipal('meta'), INTERNAL) });
const as = (p: Principal, extra: Partial<Principal> = {}) => ({ 'x-tabula-identity': signIdentity({ ...p, via: 'jwt', ...extra }, INTERNAL) });
const said = (res: request.Response) => ({ status: res.status, error: res.body.error as string | undefined });
const tokens = `/api/v1/db/meta/projects/${BASE}/api-tokens`;
const members = `/api/v1/db/meta/projects/${BASE}/users`;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-for-auth-tests', EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: '/tmp' } as NodeJS.ProcessEnv;
  // Role lookups go to auth's own internal API, in process.
  const local = new LocalServiceClient(() => signIdentity(servicePrincipal('auth'), INTERNAL));
  shared = buildSharedPorts({ platform: loadPlatformConfig(env), databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'auth', local });
  const prepared = await prepareService(authService, shared, env);
  local.register('auth', prepared.app.callback());
  workers = await prepared.start();
  server = http.createServer(prepared.app.callback());
  for (const name of ['admin', 'owner', 'creator', 'editor', 'viewer', 'stranger'] as const) {
    const signup = await request(server).post('/api/v1/auth/user/signup').send({ email: `${name}@access.example`, password: 'password-1' }).expect(200);
    people[name] = (await request(server).post('/internal/authenticate').set(asService()).send({ token: signup.body.token, kind: 'jwt' })).body.principal;
  }
  for (const name of ['owner', 'creator', 'editor', 'viewer'] as const) {
    await request(server).put(`/internal/bases/${BASE}/members/${people[name].id}`).set(asService()).send({ role: name }).expect(200);
  }
});
afterAll(async () => {
  await stopWorkers(workers, () => undefined);
  await shared?.close();
  await database?.drop();
});

describe('base API tokens (token.write on the base)', () => {
  it('creators and owners manage them; editors are refused; non-members get the same 403 for any base', async () => {
    expect((await request(server).post(tokens).set(as(people.creator)).send({ description: 'c' })).status).toBe(200);
    expect((await request(server).get(tokens).set(as(people.owner))).body.list).toHaveLength(1);
    const editor = await request(server).post(tokens).set(as(people.editor)).send({});
    expect({ ...said(editor), message: editor.body.message }).toEqual({ status: 403, error: 'ERR_FORBIDDEN', message: "Forbidden - role 'editor' may not perform 'token.write'" });
    const stranger = await request(server).get(tokens).set(as(people.stranger));
    const missingBase = await request(server).get('/api/v1/db/meta/projects/pnothing/api-tokens').set(as(people.stranger));
    expect([said(stranger), said(missingBase)]).toEqual([{ status: 403, error: 'ERR_FORBIDDEN' }, { status: 403, error: 'ERR_FORBIDDEN' }]);
    expect(missingBase.body.message).toBe(stranger.body.message);
  });

  it('a creator revokes a creator\'s token but not the owner\'s; the owner revokes any; another base\'s token is missing', async () => {
    const byOwner = (await request(server).post(tokens).set(as(people.owner)).send({}).expect(200)).body.id;
    const byCreator = (await request(server).post(tokens).set(as(people.creator)).send({}).expect(200)).body.id;
    expect(said(await request(server).delete(`${tokens}/${byOwner}`).set(as(people.creator)))).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    const elsewhere = (await request(server).post('/api/v1/db/meta/projects/pother/api-tokens').set(as(people.admin)).send({}).expect(200)).body.id;
    expect(said(await request(server).delete(`${tokens}/${elsewhere}`).set(as(people.owner)))).toEqual({ status: 404, error: 'ERR_TOKEN_NOT_FOUND' });
    expect((await request(server).delete(`${tokens}/${byCreator}`).set(as(people.owner))).status).toBe(200);
    expect((await request(server).delete(`${tokens}/${byOwner}`).set(as(people.owner))).status).toBe(200);
  });

  it('API tokens are refused with 401 ERR_API_TOKEN_NOT_ALLOWED, org-wide or of this very base', async () => {
    for (const extra of [{ via: 'api-token', tokenId: 't1' }, { via: 'api-token', tokenId: 't2', baseScope: BASE }] as Partial<Principal>[]) {
      expect(said(await request(server).get(tokens).set(as(people.owner, extra)))).toEqual({ status: 401, error: 'ERR_API_TOKEN_NOT_ALLOWED' });
      expect(said(await request(server).delete('/api/v1/tokens/tk_any').set(as(people.owner, extra)))).toEqual({ status: 401, error: 'ERR_API_TOKEN_NOT_ALLOWED' });
    }
  });
});

describe('org API tokens (the maker\'s own)', () => {
  it('another user\'s token and a base token answer as a missing one; super revokes any user\'s', async () => {
    const mine = (await request(server).post('/api/v1/tokens').set(as(people.editor)).send({ description: 'mine' }).expect(200)).body.id;
    const listed = await request(server).get('/api/v1/tokens').set(as(people.viewer));
    expect(listed.body.list).toEqual([]);
    expect(said(await request(server).delete(`/api/v1/tokens/${mine}`).set(as(people.viewer)))).toEqual({ status: 404, error: 'ERR_TOKEN_NOT_FOUND' });
    const baseToken = (await request(server).post(tokens).set(as(people.owner)).send({}).expect(200)).body.id;
    expect(said(await request(server).delete(`/api/v1/tokens/${baseToken}`).set(as(people.owner)))).toEqual({ status: 404, error: 'ERR_TOKEN_NOT_FOUND' });
    expect((await request(server).delete(`/api/v1/tokens/${mine}`).set(as(people.admin))).status).toBe(200);
    expect(said(await request(server).delete(`/api/v1/tokens/${mine}`).set(as(people.editor)))).toEqual({ status: 404, error: 'ERR_TOKEN_NOT_FOUND' });
  });
});

describe('base members (members.read / members.write on the base)', () => {
  it('members list them, creators change them within their own role, non-members get 403', async () => {
    expect((await request(server).get(members).set(as(people.viewer))).body.users.list).toHaveLength(4);
    expect(said(await request(server).get(members).set(as(people.stranger)))).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    const body = { email: people.stranger.email, roles: 'viewer' };
    expect(said(await request(server).post(members).set(as(people.editor)).send(body))).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    const tooHigh = await request(server).post(members).set(as(people.creator)).send({ ...body, roles: 'owner' });
    expect({ ...said(tooHigh), message: tooHigh.body.message }).toEqual({ status: 403, error: 'ERR_FORBIDDEN', message: "Forbidden - role 'creator' may not grant 'owner'" });
    expect((await request(server).post(members).set(as(people.creator)).send(body)).status).toBe(200);
    expect(said(await request(server).patch(`${members}/${people.owner.id}`).set(as(people.creator)).send({ roles: 'viewer' }))).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    expect((await request(server).patch(`${members}/${people.stranger.id}`).set(as(people.creator)).send({ roles: 'commenter' })).status).toBe(200);
    expect((await request(server).delete(`${members}/${people.stranger.id}`).set(as(people.creator))).status).toBe(200);
    expect(said(await request(server).delete(`${members}/${people.stranger.id}`).set(as(people.creator)))).toEqual({ status: 404, error: 'ERR_USER_NOT_FOUND' });
  });
});
