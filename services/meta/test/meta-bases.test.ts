import { startMetaHarness, waitFor, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
let h: MetaHarness;

beforeAll(async () => { h = await startMetaHarness(); });
afterAll(async () => { await h.stop(); });

describe('bases', () => {
  it('creates a base with a default source in its own schema, and makes the creator owner', async () => {
    const alice = h.as({ id: 'usalice00000001', email: 'alice@example.com' });
    const res = await h.http.post(`${P}/projects`).set(alice).send({ title: 'Alpha', color: '#ff0000', meta: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^p[0-9a-z]{14}$/);
    expect(res.body.sources).toHaveLength(1);
    expect(res.body.sources[0]).toMatchObject({ type: 'pg', is_meta: true });
    expect(res.body.sources[0].config).toBeUndefined();
    expect(h.auth.roles.get(`${res.body.id}:usalice00000001`)).toBe('owner');
    const schemas = await h.shared.dataDb.raw('select schema_name from information_schema.schemata where schema_name = ?', [res.body.id]);
    expect(schemas.rows).toHaveLength(1);
    const read = await h.http.get(`${P}/projects/${res.body.id}`).set(alice);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ title: 'Alpha', color: '#ff0000', meta: { a: 1 }, tables: [] });
  });

  it('a base whose owner cannot be recorded is not created: no base, no schema, no event (500 or unreachable auth → 503)', async () => {
    const user = h.as({ id: 'usgrantfail0001', email: 'grant@example.com' });
    const created = () => h.shared.db.withSchema('meta').from('outbox').where({ type: 'meta.base.created' }).count<{ count: string }[]>('* as count');
    const schemas = () => h.shared.dataDb.raw("select count(*)::int as n from information_schema.schemata where schema_name like 'p%'");
    const [eventsBefore, schemasBefore] = [Number((await created())[0].count), (await schemas()).rows[0].n];
    for (const failure of ['error', 'unreachable'] as const) {
      h.auth.failGrants = failure;
      const res = await h.http.post(`${P}/projects`).set(user).send({ title: `NoOwner-${failure}` });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'ERR_SERVICE_UNAVAILABLE' });
      expect(await h.shared.db.withSchema('meta').from('bases').where({ title: `NoOwner-${failure}` })).toEqual([]);
    }
    h.auth.failGrants = undefined;
    expect(await h.shared.db.withSchema('meta').from('bases').where({ created_by: 'usgrantfail0001' })).toEqual([]);
    expect(Number((await created())[0].count)).toBe(eventsBefore);
    expect((await schemas()).rows[0].n).toBe(schemasBefore);
    const ok = await h.http.post(`${P}/projects`).set(user).send({ title: 'Owned' }).expect(200);
    expect(h.auth.roles.get(`${ok.body.id}:usgrantfail0001`)).toBe('owner');
    await h.http.delete(`${P}/projects/${ok.body.id}`).set(user).expect(200);
  });

  it('lists only member bases with pageInfo, super sees all, paging honoured', async () => {
    const bob = h.as({ id: 'usbob000000001' });
    await h.http.post(`${P}/projects`).set(bob).send({ title: 'Bobs' }).expect(200);
    const list = await h.http.get(`${P}/projects/`).set(bob).expect(200);
    expect(list.body.list.map((b: { title: string }) => b.title)).toEqual(['Bobs']);
    expect(list.body.pageInfo).toMatchObject({ totalRows: 1, page: 1, isFirstPage: true, isLastPage: true });
    const all = await h.http.get(`${P}/projects?page=1&pageSize=1`).set(h.superUser).expect(200);
    expect(all.body.list).toHaveLength(1);
    expect(all.body.pageInfo).toMatchObject({ totalRows: 2, pageSize: 1, isLastPage: false });
  });

  it("refuses another user's base, updates (1), info, soft-deletes (true) with an event", async () => {
    const owner = h.as({ id: 'usowner0000001' });
    const base = (await h.http.post(`${P}/projects`).set(owner).send({ title: 'Mine' })).body;
    await h.http.get(`${P}/projects/${base.id}`).set(h.as({ id: 'usstranger0001' })).expect(404);
    expect((await h.http.patch(`${P}/projects/${base.id}`).set(owner).send({ title: 'Mine2', order: 3 })).body).toBe(1);
    const info = await h.http.get(`${P}/projects/${base.id}/info`).set(owner).expect(200);
    expect(Object.keys(info.body).sort()).toEqual(['Arch', 'Docker', 'Node', 'PackageVersion', 'Platform', 'RootDB']);
    h.auth.roles.set(`${base.id}:uscreator00001`, 'creator');
    await h.http.delete(`${P}/projects/${base.id}`).set(h.as({ id: 'uscreator00001' })).expect(403);
    expect((await h.http.delete(`${P}/projects/${base.id}`).set(owner).expect(200)).body).toBe(true);
    await h.http.get(`${P}/projects/${base.id}`).set(owner).expect(404);
    await waitFor(() => h.events.some((e) => e.type === 'meta.base.deleted' && e.key === base.id));
  });

  it('lets a viewer read metadata but not change the schema', async () => {
    const owner = h.as({ id: 'usowner0000002' });
    const viewer = h.as({ id: 'usviewer000002' });
    const base = (await h.http.post(`${P}/projects`).set(owner).send({ title: 'Roles' })).body;
    const table = (await h.http.post(`${P}/projects/${base.id}/tables`).set(owner).send({ title: 'T' }).expect(200)).body;
    h.auth.roles.set(`${base.id}:usviewer000002`, 'viewer');
    await h.http.get(`${P}/tables/${table.id}`).set(viewer).expect(200);
    await h.http.post(`${P}/projects/${base.id}/tables`).set(viewer).send({ title: 'U' }).expect(403);
    await h.http.post(`${P}/tables/${table.id}/columns`).set(viewer).send({ title: 'C', uidt: 'Number' }).expect(403);
    await h.http.patch(`${P}/projects/${base.id}`).set(viewer).send({ title: 'x' }).expect(403);
  });

  it('duplicates a base with data, or schema only with excludeData', async () => {
    const base = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'DupSrc' })).body;
    const table = (await h.http.post(`${P}/projects/${base.id}/tables`).set(h.superUser).send({ title: 'T', columns: [{ title: 'N', uidt: 'Number' }] })).body;
    await h.shared.dataDb.withSchema(base.id).table(table.table_name).insert([{ N: 7 }]);
    const full = (await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(200)).body;
    const empty = (await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({ options: { excludeData: true } }).expect(200)).body;
    expect(full).toMatchObject({ id: expect.stringMatching(/^p/), name: 'DupSrc copy' });
    expect(await h.shared.dataDb.withSchema(full.id).from(table.table_name).pluck('N')).toEqual([7]);
    expect(await h.shared.dataDb.withSchema(empty.id).from(table.table_name).pluck('N')).toEqual([]);
  });

  it('validates input', async () => {
    await h.http.post(`${P}/projects`).set(h.superUser).send({}).expect(400);
    await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'x', color: 'red' }).expect(400);
    await h.http.post(`${P}/projects`).set(h.as({ id: 'usviewer000001', roles: ['org-level-viewer'] })).send({ title: 'v' }).expect(403);
    await h.http.get(`${P}/projects`).expect(401);
  });
});
