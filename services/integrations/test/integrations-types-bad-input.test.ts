import { INTEGRATION_TYPES } from '@tabula/contracts';
import { startIntegrationsHarness, users, type IntegrationsHarness } from './integrations-app.harness';

const M = '/api/v2/meta/integrations';
const I = '/api/v2/integrations';
let h: IntegrationsHarness;
const pg = { client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'app', password: 'pw-secret-1', database: 'sales' } };

beforeAll(async () => { h = await startIntegrationsHarness(); });
afterAll(async () => { await h.stop(); });

describe('type registry', () => {
  it('lists every type of the spec with its sub-types', async () => {
    const res = await h.http.get(I).set(h.as(users.viewer)).expect(200);
    expect(res.body.list.map((t: { type: string }) => t.type)).toEqual([...INTEGRATION_TYPES]);
    const sub = (type: string) => res.body.list.find((t: { type: string }) => t.type === type).subTypes.map((s: { sub_type: string }) => s.sub_type);
    expect(sub('database')).toEqual(['mysql2', 'pg', 'sqlite3', 'mssql', 'oracledb', 'snowflake', 'databricks']);
    expect(sub('ai')).toEqual(['openai', 'openai-compatible']);
  });

  it('describes a sub-type: JSON schema, title, icon, secret fields', async () => {
    const res = await h.http.get(`${I}/database/pg`).set(h.as(users.owner)).expect(200);
    expect(res.body).toMatchObject({ type: 'database', sub_type: 'pg', title: 'PostgreSQL', icon: 'pg', secret_fields: ['connection.password'] });
    expect(res.body.endpoints).toEqual(['testConnection', 'listTables', 'listColumns']);
    expect(res.body.schema.type).toBe('object');
    expect(res.body.schema.properties.connection.required).toEqual(expect.arrayContaining(['host', 'user', 'database']));
    const ai = (await h.http.get(`${I}/ai/openai`).set(h.as(users.owner)).expect(200)).body;
    expect(ai.secret_fields).toEqual(['apiKey']);
    expect(ai.schema.required).toContain('apiKey');
  });

  it('404 for an unknown type or sub-type', async () => {
    expect((await h.http.get(`${I}/nosuch/pg`).set(h.as(users.owner))).status).toBe(404);
    expect((await h.http.get(`${I}/database/nosuch`).set(h.as(users.owner))).status).toBe(404);
  });
});

describe('bad input (issue list)', () => {
  it('title of 129 characters → 400 (128 is fine)', async () => {
    const bad = await h.http.post(M).set(h.as(users.owner)).send({ title: 'x'.repeat(129), type: 'database', sub_type: 'pg', config: pg });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/title/);
    await h.http.post(M).set(h.as(users.owner)).send({ title: 'x'.repeat(128), type: 'database', sub_type: 'pg', config: pg }).expect(200);
  });

  it('unknown type or sub-type → 400', async () => {
    expect((await h.http.post(M).set(h.as(users.owner)).send({ title: 't', type: 'nosuch', sub_type: 'pg', config: pg })).status).toBe(400);
    const sub = await h.http.post(M).set(h.as(users.owner)).send({ title: 't', type: 'database', sub_type: 'nosuch', config: pg });
    expect(sub.status).toBe(400);
    expect(sub.body.msg).toMatch(/nosuch/);
  });

  it('config failing the type schema → 400 naming the field (create and PATCH)', async () => {
    const noHost = await h.http.post(M).set(h.as(users.owner)).send({
      title: 't', type: 'database', sub_type: 'pg', config: { connection: { user: 'a', database: 'b' } },
    });
    expect(noHost.status).toBe(400);
    expect(noHost.body.msg).toMatch(/^config\.connection\.host/);
    const badPort = await h.http.post(M).set(h.as(users.owner)).send({
      title: 't', type: 'database', sub_type: 'pg', config: { connection: { ...pg.connection, port: 70000 } },
    });
    expect(badPort.body.msg).toMatch(/^config\.connection\.port/);
    const noKey = await h.http.post(M).set(h.as(users.owner)).send({ title: 't', type: 'ai', sub_type: 'openai', config: {} });
    expect([noKey.status, noKey.body.msg]).toEqual([400, expect.stringMatching(/^config\.apiKey/)]);
    const { id } = (await h.http.post(M).set(h.as(users.owner)).send({ title: 'p', type: 'database', sub_type: 'pg', config: pg }).expect(200)).body;
    const patch = await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ config: { connection: { host: '' } } });
    expect([patch.status, patch.body.msg]).toEqual([400, expect.stringMatching(/^config\.connection\.host/)]);
  });

  it('copy_from_id of an integration the caller cannot see → 400, nothing copied', async () => {
    const priv = (await h.http.post(M).set(h.as(users.owner)).send({ title: 'priv', type: 'database', sub_type: 'pg', config: pg, is_private: true }).expect(200)).body;
    const res = await h.http.post(M).set(h.as(users.creator)).send({ title: 'steal', type: 'database', sub_type: 'pg', copy_from_id: priv.id });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain('pw-secret-1');
    expect((await h.http.post(M).set(h.as(users.creator)).send({ title: 's', type: 'database', sub_type: 'pg', copy_from_id: 'intnosuch' })).status).toBe(400);
  });

  it('PATCH of someone else\'s private integration → refused, unchanged', async () => {
    const priv = (await h.http.post(M).set(h.as(users.owner)).send({ title: 'mine', type: 'database', sub_type: 'pg', config: pg, is_private: true }).expect(200)).body;
    const res = await h.http.patch(`${M}/${priv.id}`).set(h.as(users.admin)).send({ title: 'theirs', config: { connection: { host: 'evil.example.com' } } });
    expect(res.status).toBe(404);
    const after = (await h.http.get(`${M}/${priv.id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body;
    expect([after.title, after.config.connection.host]).toEqual(['mine', 'db.example.com']);
  });

  it('includeConfig=true as a non-owner → masked, not 403, not leaked', async () => {
    const { id } = (await h.http.post(M).set(h.as(users.owner)).send({ title: 'shared', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-live-abcdef' } }).expect(200)).body;
    const res = await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.creator)).expect(200);
    expect(res.body.config.apiKey).toBe('********');
    expect(JSON.stringify(res.body)).not.toContain('sk-live-abcdef');
  });

  it('query flags refused when malformed; odd paging follows the one paging rule (default, clamp, never 400)', async () => {
    for (const q of ['type=nosuch', 'includeDatabaseInfo=maybe']) {
      expect([q, (await h.http.get(`${M}?${q}`).set(h.as(users.owner))).status]).toEqual([q, 400]);
    }
    for (const q of ['limit=-1', 'limit=abc', 'limit=0', 'limit=5000', 'offset=-5', 'offset=abc']) {
      expect([q, (await h.http.get(`${M}?${q}`).set(h.as(users.owner))).status]).toEqual([q, 200]);
    }
    expect((await h.http.get(`${M}/intx?includeConfig=yes`).set(h.as(users.owner))).status).toBe(400);
    expect((await h.http.delete(`${M}/intx?force=1`).set(h.as(users.owner))).status).toBe(400);
    expect((await h.http.get(`${M}/intnosuch`).set(h.as(users.owner))).status).toBe(404);
  });
});
