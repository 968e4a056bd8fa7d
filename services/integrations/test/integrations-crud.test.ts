import { decodeEvent, IntegrationChangedSchema } from '@tabula/contracts';
import { startIntegrationsHarness, users, waitFor, type IntegrationsHarness } from './integrations-app.harness';

const M = '/api/v2/meta/integrations';
const SECRET = 'pg-Secret-Password-42';
let h: IntegrationsHarness;

const pgConfig = (password = SECRET) => ({ client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'app', password, database: 'sales' } });

function create(who: Record<string, string>, body: Record<string, unknown>) {
  return h.http.post(M).set(who).send({ type: 'database', sub_type: 'pg', config: pgConfig(), ...body });
}

beforeAll(async () => { h = await startIntegrationsHarness(); });
afterAll(async () => { await h.stop(); });

describe('create, read, encryption at rest', () => {
  it('creates with NocoDB field names and never stores the config in clear', async () => {
    const res = await create(h.as(users.owner), { title: 'Sales DB', meta: { color: 'blue' } }).expect(200);
    expect(res.body).toMatchObject({
      title: 'Sales DB', type: 'database', sub_type: 'pg', enabled: true, is_private: false, is_default: false,
      created_by: users.owner.id, fk_workspace_id: null, meta: { color: 'blue' },
    });
    expect(res.body.id).toMatch(/^int[0-9a-z]{14}$/);
    expect(res.body.config).toBeUndefined();
    const row = await h.shared.db.withSchema('integrations').table('integrations').where({ id: res.body.id }).first();
    const raw = JSON.stringify(row);
    for (const clear of [SECRET, 'db.example.com', 'sales']) expect(raw).not.toContain(clear);
    expect(row.config_sealed).toMatch(/^v3\.[A-Za-z0-9_-]{8}\./);
  });

  it('lists with type, query, limit/offset and includeDatabaseInfo (never a secret)', async () => {
    await create(h.as(users.owner), { title: 'Analytics DB' }).expect(200);
    await h.http.post(M).set(h.as(users.owner)).send({ title: 'Bot', type: 'ai', sub_type: 'openai', config: { apiKey: 'sk-test-123' } }).expect(200);
    const all = (await h.http.get(M).set(h.as(users.owner)).expect(200)).body;
    expect(Array.isArray(all)).toBe(true);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const dbs = (await h.http.get(`${M}?type=database&includeDatabaseInfo=true`).set(h.as(users.owner)).expect(200)).body;
    expect(dbs.every((i: { type: string }) => i.type === 'database')).toBe(true);
    expect(dbs[0].dbInfo).toEqual({ client: 'pg', host: 'db.example.com', port: 5432, database: 'sales' });
    expect(JSON.stringify(dbs)).not.toContain(SECRET);
    const found = (await h.http.get(`${M}?query=analytics`).set(h.as(users.owner)).expect(200)).body;
    expect(found.map((i: { title: string }) => i.title)).toEqual(['Analytics DB']);
    const page = (await h.http.get(`${M}?limit=1&offset=1`).set(h.as(users.owner)).expect(200)).body;
    expect(page).toHaveLength(1);
    expect(page[0].id).toBe(all[1].id);
  });
});

describe('who sees what (Authentication rule 6)', () => {
  let id: string;
  beforeAll(async () => { id = (await create(h.as(users.owner), { title: 'Matrix' }).expect(200)).body.id; });

  it('creator: whole config', async () => {
    const res = await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200);
    expect(res.body.config).toEqual(pgConfig());
    expect(res.body.config_masked).toBeUndefined();
  });

  it('another org admin: masked (secret fields from the schema replaced, host/port/database shown)', async () => {
    for (const who of [users.admin, users.creator]) {
      const res = await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(who)).expect(200);
      expect(res.body.config).toEqual({ client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'app', password: '********', database: 'sales' } });
      expect(res.body.config_masked).toBe(true);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
  });

  it('a plain user: every integration is missing to them (issue 28), 403 on list and create', async () => {
    const res = await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.viewer));
    expect([res.status, res.body.error]).toEqual([404, 'ERR_INTEGRATION_NOT_FOUND']);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect((await h.http.get(M).set(h.as(users.viewer))).status).toBe(403);
    expect((await create(h.as(users.viewer), { title: 'Nope' })).status).toBe(403);
    expect((await h.http.patch(`${M}/${id}`).set(h.as(users.viewer)).send({ title: 'x' })).status).toBe(404);
    expect((await h.http.delete(`${M}/${id}`).set(h.as(users.viewer))).status).toBe(404);
  });

  it('without includeConfig nobody gets the config; anonymous gets 401', async () => {
    expect((await h.http.get(`${M}/${id}`).set(h.as(users.owner)).expect(200)).body.config).toBeUndefined();
    expect((await h.http.get(`${M}/${id}`)).status).toBe(401);
  });

  it('private integrations exist for their creator alone', async () => {
    const priv = (await create(h.as(users.owner), { title: 'Mine', is_private: true }).expect(200)).body;
    expect((await h.http.get(`${M}/${priv.id}`).set(h.as(users.owner))).status).toBe(200);
    for (const who of [users.admin, users.creator]) {
      expect((await h.http.get(`${M}/${priv.id}`).set(h.as(who))).status).toBe(404);
      const listed = (await h.http.get(M).set(h.as(who)).expect(200)).body.map((i: { id: string }) => i.id);
      expect(listed).not.toContain(priv.id);
      const patch = await h.http.patch(`${M}/${priv.id}`).set(h.as(who)).send({ title: 'stolen' });
      expect(patch.status).toBe(404);
      expect((await h.http.delete(`${M}/${priv.id}`).set(h.as(who))).status).toBe(404);
    }
    expect((await h.http.get(`${M}/${priv.id}`).set(h.as(users.owner)).expect(200)).body.title).toBe('Mine');
  });
});

describe('update, defaults, copy, delete, events', () => {
  it('PATCH merges config, keeps masked echoes, renames and changes meta', async () => {
    const { id } = (await create(h.as(users.owner), { title: 'Merge' }).expect(200)).body;
    await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ config: { connection: { host: 'db2.example.com', password: '********' } } }).expect(200);
    const res = await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ title: 'Merged', meta: { a: 1 }, config: { connection: { port: 6543 } } }).expect(200);
    expect(res.body).toMatchObject({ title: 'Merged', meta: { a: 1 } });
    const full = (await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config;
    expect(full.connection).toEqual({ host: 'db2.example.com', port: 6543, user: 'app', password: SECRET, database: 'sales' });
  });

  it('someone who sees the config masked must enter the secrets again to change or copy it (issue 17)', async () => {
    const { id } = (await create(h.as(users.owner), { title: 'Shared' }).expect(200)).body;
    // Redirecting the host while keeping the stored password would send it to a server of the caller's choosing.
    for (const who of [users.admin, users.creator]) {
      for (const config of [{ connection: { host: 'evil.example.com', password: '********' } }, { connection: { host: 'evil.example.com' } }]) {
        const res = await h.http.patch(`${M}/${id}`).set(h.as(who)).send({ config });
        expect([res.status, res.body.message]).toEqual([403, expect.stringContaining('connection.password')]);
      }
      const copy = await h.http.post(M).set(h.as(who)).send({ title: 'Stolen', type: 'database', sub_type: 'pg', copy_from_id: id });
      expect([copy.status, copy.body.message]).toEqual([403, expect.stringContaining('connection.password')]);
    }
    const full = (await h.http.get(`${M}/${id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config;
    expect(full.connection).toMatchObject({ host: 'db.example.com', password: SECRET });
    // Re-entering the secret, or changing nothing but title and flags, is allowed.
    await h.http.patch(`${M}/${id}`).set(h.as(users.creator)).send({ title: 'Renamed', config: { connection: { password: '********' } } }).expect(200);
    await h.http.patch(`${M}/${id}`).set(h.as(users.creator)).send({ config: { connection: { host: 'db3.example.com', password: 'their-own-password' } } }).expect(200);
    const copied = await h.http.post(M).set(h.as(users.creator)).send({ title: 'Mine', type: 'database', sub_type: 'pg', copy_from_id: id, config: { connection: { password: 'mine' } } });
    expect(copied.status).toBe(200);
  });

  it('keeps one default per type', async () => {
    const a = (await create(h.as(users.owner), { title: 'Default A', is_default: true }).expect(200)).body;
    const b = (await create(h.as(users.owner), { title: 'Default B', is_default: true }).expect(200)).body;
    expect((await h.http.get(`${M}/${a.id}`).set(h.as(users.owner))).body.is_default).toBe(false);
    expect((await h.http.get(`${M}/${b.id}`).set(h.as(users.owner))).body.is_default).toBe(true);
    await h.http.patch(`${M}/${a.id}`).set(h.as(users.owner)).send({ is_default: true }).expect(200);
    expect((await h.http.get(`${M}/${b.id}`).set(h.as(users.owner))).body.is_default).toBe(false);
    const defaults = await h.shared.db.withSchema('integrations').table('integrations').where({ type: 'database', is_default: true });
    expect(defaults.map((r: { id: string }) => r.id)).toEqual([a.id]);
  });

  it('copy_from_id starts from another visible integration\'s config', async () => {
    const src = (await create(h.as(users.owner), { title: 'Source' }).expect(200)).body;
    const copy = (await h.http.post(M).set(h.as(users.owner)).send({
      title: 'Copy', type: 'database', sub_type: 'pg', copy_from_id: src.id, config: { connection: { database: 'other' } },
    }).expect(200)).body;
    const cfg = (await h.http.get(`${M}/${copy.id}?includeConfig=true`).set(h.as(users.owner)).expect(200)).body.config;
    expect(cfg.connection).toMatchObject({ host: 'db.example.com', password: SECRET, database: 'other' });
  });

  it('delete refuses while sources use it, force detaches; includeSources lists them', async () => {
    const { id } = (await create(h.as(users.owner), { title: 'Used' }).expect(200)).body;
    h.meta.sources.set(id, [{ id: 'bs1', base_id: 'p1', alias: null, type: 'pg' }]);
    const got = (await h.http.get(`${M}/${id}?includeSources=true`).set(h.as(users.owner)).expect(200)).body;
    expect(got.sources).toEqual([{ id: 'bs1', base_id: 'p1', alias: null, type: 'pg' }]);
    const refused = await h.http.delete(`${M}/${id}`).set(h.as(users.owner));
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toMatch(/force=true/);
    expect((await h.http.delete(`${M}/${id}?force=false`).set(h.as(users.owner))).status).toBe(400);
    expect((await h.http.delete(`${M}/${id}?force=true`).set(h.as(users.owner)).expect(200)).body).toBe(true);
    expect((await h.http.get(`${M}/${id}`).set(h.as(users.owner))).status).toBe(404);
  });

  it('publishes created/updated/deleted through the outbox, never with the config', async () => {
    const { id } = (await create(h.as(users.owner), { title: 'Evented' }).expect(200)).body;
    await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ config: { connection: { password: 'changed' } } }).expect(200);
    await h.http.patch(`${M}/${id}`).set(h.as(users.owner)).send({ title: 'Evented 2' }).expect(200);
    await h.http.delete(`${M}/${id}`).set(h.as(users.owner)).expect(200);
    await waitFor(() => h.events.filter((e) => e.key === id).length === 4);
    const mine = h.events.filter((e) => e.key === id);
    expect(mine.map((e) => e.type)).toEqual([
      'integrations.integration.created', 'integrations.integration.updated', 'integrations.integration.updated', 'integrations.integration.deleted',
    ]);
    const updates = mine.slice(1, 3).map((e) => decodeEvent(IntegrationChangedSchema, e.payload));
    expect(updates.map((u) => u.configChanged)).toEqual([true, false]);
    expect(updates[0]).toMatchObject({ integrationId: id, type: 'database', subType: 'pg', user: { id: users.owner.id } });
    expect(Buffer.from(mine[1].payload).toString('latin1')).not.toContain('changed');
  });
});
