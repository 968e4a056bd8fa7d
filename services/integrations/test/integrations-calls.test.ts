import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import knexFactory from 'knex';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { startIntegrationsHarness, users, type IntegrationsHarness } from './integrations-app.harness';

const M = '/api/v2/meta/integrations';
const I = '/api/v2/integrations';
let h: IntegrationsHarness;
let strict: IntegrationsHarness;
let ext: TestDatabase;
let openai: http.Server;
let silent: net.Server;
const sockets: net.Socket[] = [];
const seen: { auth?: string; body?: any }[] = [];

function pgOf(url: string, password?: string) {
  const u = new URL(url);
  return { client: 'pg', connection: { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: password ?? (decodeURIComponent(u.password) || undefined), database: u.pathname.slice(1) } };
}

/** A fake OpenAI chat-completions server on loopback. */
function startFakeOpenAi(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => { text += c.toString(); });
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ auth: req.headers.authorization, body });
      if (req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: 'cmpl-1', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${body.messages.at(-1).content}` }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
      }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function createIntegration(harness: IntegrationsHarness, body: Record<string, unknown>): Promise<string> {
  return (await harness.http.post(M).set(harness.as(users.owner)).send(body).expect(200)).body.id;
}

beforeAll(async () => {
  h = await startIntegrationsHarness({ env: { SVC_ALLOW_LOCAL_SOURCES: 'true', SVC_INTEGRATIONS_CONNECT_TIMEOUT_MS: '1500' } });
  strict = await startIntegrationsHarness();
  ext = await createTestDatabase('tabula_intext');
  const k = knexFactory({ client: 'pg', connection: ext.url });
  await k.schema.createTable('orders', (t) => { t.increments('id'); t.string('customer').notNullable(); t.decimal('total'); });
  await k.schema.createTable('customers', (t) => { t.increments('id'); t.string('name'); });
  await k.destroy();
  openai = await startFakeOpenAi();
  silent = net.createServer((socket) => { sockets.push(socket); });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
});
afterAll(async () => {
  openai.closeAllConnections();
  await new Promise((r) => openai.close(r));
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => silent.close(r));
  await h.stop();
  await strict.stop();
  await ext.drop();
});

describe('database endpoints', () => {
  let id: string;
  beforeAll(async () => { id = await createIntegration(h, { title: 'Local pg', type: 'database', sub_type: 'pg', config: pgOf(ext.url) }); });

  it('testConnection really connects', async () => {
    const res = await h.http.post(`${I}/${id}/testConnection`).set(h.as(users.owner)).send({}).expect(200);
    expect(res.body.success).toBe(true);
  });

  it('listTables and listColumns', async () => {
    expect((await h.http.post(`${I}/${id}/listTables`).set(h.as(users.owner)).send({}).expect(200)).body.list).toEqual(['customers', 'orders']);
    const cols = (await h.http.post(`${I}/${id}/listColumns`).set(h.as(users.owner)).send({ tableName: 'orders' }).expect(200)).body.list;
    expect(cols).toEqual([
      { column_name: 'id', data_type: 'integer', nullable: false },
      { column_name: 'customer', data_type: 'character varying', nullable: false },
      { column_name: 'total', data_type: 'numeric', nullable: true },
    ]);
    expect((await h.http.post(`${I}/${id}/listColumns`).set(h.as(users.owner)).send({})).status).toBe(400);
    expect((await h.http.post(`${I}/${id}/listColumns`).set(h.as(users.owner)).send({ tableName: 'nosuch' })).status).toBe(404);
  });

  it('a wrong password → 502 naming the driver code, never the password', async () => {
    const bad = await createIntegration(h, { title: 'Bad pw', type: 'database', sub_type: 'pg', config: pgOf(ext.url, 'Wrong-Password-9') });
    await h.shared.db.raw('select 1');
    const res = await h.http.post(`${I}/${bad}/testConnection`).set(h.as(users.owner)).send({});
    // local trust auth accepts any password; a refused login (28P01) and success are both honest answers here
    expect([200, 502]).toContain(res.status);
    expect(JSON.stringify(res.body)).not.toContain('Wrong-Password-9');
  });

  it('times out on a server that never answers', async () => {
    const port = (silent.address() as AddressInfo).port;
    const slow = await createIntegration(h, { title: 'Silent', type: 'database', sub_type: 'pg', config: { connection: { host: '127.0.0.1', port, user: 'u', database: 'd' } } });
    // The service's own timeout answered (504 with its code), not the test's: no elapsed-time bound needed.
    const res = await h.http.post(`${I}/${slow}/testConnection`).set(h.as(users.owner)).send({});
    expect([res.status, res.body.error]).toEqual([504, 'ERR_INTEGRATION_TIMEOUT']);
  });

  it('SSRF: 127.0.0.1 refused without SVC_ALLOW_LOCAL_SOURCES, metadata address always', async () => {
    const local = await createIntegration(strict, { title: 'Loopback', type: 'database', sub_type: 'pg', config: pgOf(ext.url) });
    const res = await strict.http.post(`${I}/${local}/testConnection`).set(strict.as(users.owner)).send({});
    expect([res.status, res.body.msg]).toEqual([400, expect.stringMatching(/127\.0\.0\.1 is not allowed \(loopback\)/)]);
    for (const harness of [h, strict]) {
      const meta = await createIntegration(harness, { title: 'Metadata', type: 'database', sub_type: 'pg', config: { connection: { host: '169.254.169.254', user: 'u', database: 'd' } } });
      const r = await harness.http.post(`${I}/${meta}/testConnection`).set(harness.as(users.owner)).send({});
      expect([r.status, r.body.msg]).toEqual([400, expect.stringMatching(/link-local/)]);
    }
  });

  it('unknown endpoint → 404; disabled integration → refused', async () => {
    expect((await h.http.post(`${I}/${id}/dropEverything`).set(h.as(users.owner)).send({})).status).toBe(404);
    expect((await h.http.post(`${I}/intnosuch/testConnection`).set(h.as(users.owner)).send({})).status).toBe(404);
    await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ enabled: false }).expect(200);
    const res = await h.http.post(`${I}/${id}/testConnection`).set(h.as(users.owner)).send({});
    expect([res.status, res.body.error]).toEqual([400, 'ERR_INTEGRATION_DISABLED']);
    await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ enabled: true }).expect(200);
    expect((await h.http.post(`${I}/${id}/testConnection`).set(h.as(users.viewer)).send({})).status).toBe(404);
  });
});

describe('AI chat and the store', () => {
  let id: string;
  beforeAll(async () => {
    const port = (openai.address() as AddressInfo).port;
    id = await createIntegration(h, { title: 'Fake AI', type: 'ai', sub_type: 'openai-compatible', config: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-fake-key', model: 'fake-1' } });
  });

  it('chat calls the OpenAI-compatible endpoint and records usage in the store', async () => {
    const res = await h.http.post(`${I}/${id}/chat`).set(h.as(users.owner)).send({ messages: [{ role: 'user', content: 'hello' }] }).expect(200);
    expect(res.body).toMatchObject({ message: { role: 'assistant', content: 'echo: hello' }, model: 'fake-1', usage: { total_tokens: 10 } });
    expect(seen.at(-1)).toMatchObject({ auth: 'Bearer sk-fake-key', body: { model: 'fake-1', messages: [{ role: 'user', content: 'hello' }] } });
    await h.http.post(`${I}/${id}/chat`).set(h.as(users.owner)).send({ messages: [{ role: 'user', content: 'again' }], model: 'fake-2' }).expect(200);
    expect((await h.http.post(`${I}/${id}/chat`).set(h.as(users.owner)).send({ messages: [] })).status).toBe(400);
  });

  it('store: list with limit/offset, get by key, sum of named fields', async () => {
    const all = (await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send({ op: 'list' }).expect(200)).body;
    expect(all.pageInfo).toEqual({ totalRows: 2, limit: 25, offset: 0 });
    expect(all.list[0].value).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10, model: 'fake-1' });
    const second = (await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send({ op: 'list', limit: 1, offset: 1 }).expect(200)).body;
    expect(second.list.map((r: { value: { model: string } }) => r.value.model)).toEqual(['fake-2']);
    const one = (await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send({ op: 'get', key: all.list[0].key }).expect(200)).body;
    expect(one.value.total_tokens).toBe(10);
    expect((await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send({ op: 'get', key: 'nosuch' })).status).toBe(404);
    const sum = (await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send({ op: 'sum', fields: ['total_tokens', 'prompt_tokens', 'model', 'absent'] }).expect(200)).body;
    expect(sum).toEqual({ total_tokens: 20, prompt_tokens: 14, model: 0, absent: 0 });
  });

  it('store bad input: unknown op, negative limit, no fields → 400', async () => {
    for (const body of [{ op: 'drop' }, { op: 'list', limit: -1 }, { op: 'list', offset: -1 }, { op: 'sum', fields: [] }, { op: 'get' }, {}]) {
      expect([body, (await h.http.post(`${I}/${id}/store`).set(h.as(users.owner)).send(body)).status]).toEqual([body, 400]);
    }
  });

  it('chat to a loopback AI endpoint is refused without the flag', async () => {
    const port = (openai.address() as AddressInfo).port;
    const local = await createIntegration(strict, { title: 'AI', type: 'ai', sub_type: 'openai-compatible', config: { baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' } });
    expect((await strict.http.post(`${I}/${local}/chat`).set(strict.as(users.owner)).send({ messages: [{ role: 'user', content: 'x' }] })).status).toBe(400);
  });
});

describe('internal config (meta\'s typed client)', () => {
  it('answers services only, decrypted; private ones only for their creator', async () => {
    const id = await createIntegration(h, { title: 'Priv', type: 'database', sub_type: 'pg', config: pgOf(ext.url, 'pw-x'), is_private: true });
    const res = await h.http.get(`/internal/integrations/${id}/config?userId=${users.owner.id}`).set(h.service).expect(200);
    expect(res.body).toMatchObject({ id, type: 'database', sub_type: 'pg', enabled: true, config: { connection: { password: 'pw-x' } } });
    expect((await h.http.get(`/internal/integrations/${id}/config?userId=${users.admin.id}`).set(h.service)).status).toBe(404);
    expect((await h.http.get(`/internal/integrations/${id}/config`).set(h.as(users.owner))).status).toBe(403);
  });
});
