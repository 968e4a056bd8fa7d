import http from 'node:http';
import type { Server } from 'node:http';
import request from 'supertest';
import { signIdentity, servicePrincipal } from '@tabula/auth';
import { topics } from '@tabula/contracts';
import type { EventBus, EventMessage } from '@tabula/events';
import { buildSharedPorts, loadPlatformConfig, prepareService, stopWorkers, type Worker } from '@tabula/runtime';
import { createLogger } from '@tabula/telemetry';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { authService } from '../src/service';

const INTERNAL = 'internal-secret-for-the-auth-outbox-tests-0123456789';
let database: TestDatabase;
let shared: ReturnType<typeof buildSharedPorts>;
let server: Server;
let workers: Worker[] = [];
let brokerDown = false;
const received: EventMessage[] = [];

/** The shared bus, except that every publish fails while `brokerDown` is set. */
function flakyBus(bus: EventBus): EventBus {
  return {
    publish: async (messages) => {
      if (brokerDown) throw new Error('broker unavailable');
      await bus.publish(messages);
    },
    subscribe: (o) => bus.subscribe(o), ping: () => bus.ping(), close: () => bus.close(),
  };
}

async function waitFor(check: () => boolean, ms = 15000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pending = async () => (await shared.db.withSchema('auth').from('outbox').whereNull('published_at').select('type')).map((r: { type: string }) => r.type).sort();

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { TABULA_MODE: 'standalone', DATABASE_URL: database.url, SVC_INTERNAL_SECRET: INTERNAL, SVC_JWT_SECRET: 'jwt-secret-for-auth-tests', EVENT_BUS: 'memory', LOG_LEVEL: 'silent', DATA_DIR: '/tmp' } as NodeJS.ProcessEnv;
  shared = buildSharedPorts({ platform: loadPlatformConfig(env), databaseUrl: database.url, logger: createLogger('test', 'silent'), caller: 'auth' });
  await shared.bus.subscribe({ group: 'test-auth-outbox', topics: [topics.auth], handler: async (m) => { received.push(m); } });
  const prepared = await prepareService(authService, { ...shared, bus: flakyBus(shared.bus) }, env);
  workers = await prepared.start();
  server = http.createServer(prepared.app.callback());
});
afterAll(async () => {
  await stopWorkers(workers, () => undefined);
  await shared?.close();
  await database?.drop();
});

describe('auth events go through the transactional outbox', () => {
  it('a sign-out, a membership change and a token revocation made while the bus is down are published once it is back', async () => {
    const signup = await request(server).post('/api/v1/auth/user/signup').send({ email: 'outbox@example.com', password: 'password-1' }).expect(200);
    const me = (await request(server).post('/internal/authenticate').set({ 'x-tabula-identity': signIdentity(servicePrincipal('meta'), INTERNAL) })
      .send({ token: signup.body.token, kind: 'jwt' })).body.principal;
    const asMe = { 'x-tabula-identity': signIdentity({ ...me, via: 'jwt' }, INTERNAL) };
    const token = (await request(server).post('/api/v1/tokens').set(asMe).send({ description: 't' }).expect(200)).body;

    brokerDown = true;
    const asMeta = { 'x-tabula-identity': signIdentity(servicePrincipal('meta'), INTERNAL) };
    await request(server).put(`/internal/bases/pbase1/members/${me.id}`).set(asMeta).send({ role: 'owner' }).expect(200);
    await request(server).delete(`/api/v1/tokens/${token.id}`).set(asMe).expect(200);
    await request(server).post('/api/v1/auth/user/signout').set(asMe).expect(200);
    expect(await pending()).toEqual(['auth.membership.changed', 'auth.token.revoked', 'auth.user.signed_out']);
    expect(received).toEqual([]);

    brokerDown = false;
    await waitFor(() => received.length >= 3);
    expect(received.map((m) => m.type)).toEqual(['auth.membership.changed', 'auth.token.revoked', 'auth.user.signed_out']);
    expect(received.every((m) => m.key === me.id)).toBe(true);
    // The relay marks rows published when its transaction commits, just after the bus took them.
    let left = await pending();
    for (let i = 0; i < 100 && left.length; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      left = await pending();
    }
    expect(left).toEqual([]);
  });

  it('granting a role the user already has changes nothing and announces nothing (idempotent grant)', async () => {
    const asMeta = { 'x-tabula-identity': signIdentity(servicePrincipal('meta'), INTERNAL) };
    const user = (await request(server).post('/api/v1/auth/user/signup').send({ email: 'again@example.com', password: 'password-1' }).expect(200)).body;
    const id = (await request(server).post('/internal/authenticate').set(asMeta).send({ token: user.token, kind: 'jwt' })).body.principal.id;
    const before = await shared.db.withSchema('auth').from('outbox').count<{ count: string }[]>('* as count');
    await request(server).put(`/internal/bases/pbase2/members/${id}`).set(asMeta).send({ role: 'owner' }).expect(200);
    await request(server).put(`/internal/bases/pbase2/members/${id}`).set(asMeta).send({ role: 'owner' }).expect(200);
    const after = await shared.db.withSchema('auth').from('outbox').count<{ count: string }[]>('* as count');
    expect(Number(after[0].count) - Number(before[0].count)).toBe(1);
  });
});
