import { baseCreate, isBaseAction, metaEndpoints, pathParamNames, permissionsOf } from '@tabula/contracts';
import { startMetaHarness, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
/** Path parameters that name a resource meta resolves to its base. */
const RESOURCE_PARAMS = new Set(['baseId', 'tableId', 'columnId', 'viewId', 'sortId', 'filterId', 'parentId', 'indexId', 'sourceId']);

describe('meta contracts declare their permissions', () => {
  const scoped = Object.values(metaEndpoints).filter((e) => e.access === 'user' && pathParamNames(e.path).some((n) => RESOURCE_PARAMS.has(n)));

  it('every user endpoint naming a base, table, column, view, sort or filter declares a base permission and where it is checked', () => {
    expect(scoped.length).toBeGreaterThan(30);
    expect(scoped.filter((e) => !isBaseAction(permissionsOf(e.auth)[0]) || !e.auth.scope).map((e) => e.id)).toEqual([]);
  });

  it('base create is an account action of org-level creators (base-scoped tokens refused), declared on its contract', () => {
    expect(baseCreate.auth).toMatchObject({ callers: ['session', 'orgToken'], permission: 'base.create' });
  });

  it('reads need base.read; every change needs more', () => {
    const wrong = scoped.filter((e) => (e.method === 'GET') !== (e.auth.permission === 'base.read')).map((e) => `${e.id}: ${e.method} ${e.auth.permission}`);
    expect(wrong).toEqual([]);
  });
});

describe('second resources are checked like the first', () => {
  let h: MetaHarness;
  const user = 'us0000000second1';
  const as = () => h.as({ id: user });
  let mine: { base: string; table: string };
  let viewed: { base: string; table: string };
  let foreign: { base: string; table: string };
  let created: { base: string; table: string };

  const baseWithTable = async (owner: string, title: string) => {
    const base = (await h.http.post(`${P}/projects`).set(h.as({ id: owner })).send({ title }).expect(200)).body.id as string;
    const table = (await h.http.post(`${P}/projects/${base}/tables`).set(h.as({ id: owner })).send({ title: 'T' }).expect(200)).body.id as string;
    return { base, table };
  };

  beforeAll(async () => {
    h = await startMetaHarness();
    mine = await baseWithTable(user, 'Mine');
    viewed = await baseWithTable('us0000000second2', 'Viewed');
    foreign = await baseWithTable('us0000000second3', 'Foreign');
    created = await baseWithTable('us0000000second4', 'Created');
    h.auth.roles.set(`${viewed.base}:${user}`, 'viewer');
    h.auth.roles.set(`${created.base}:${user}`, 'creator');
  });
  afterAll(async () => { await h.stop(); });

  it("a table duplicate needs the same permission on the table as on the base, and the base's own table", async () => {
    const dup = (table: string) => h.http.post(`${P}/duplicate/${mine.base}/table/${table}`).set(as()).send({ options: { excludeData: true } });
    const missing = await dup('mmissing0000000');
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    const hidden = await dup(foreign.table);
    expect([hidden.status, hidden.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    expect((await dup(viewed.table)).status).toBe(403);
    const other = await dup(created.table);
    expect([other.status, other.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    expect((await dup(mine.table)).body).toMatchObject({ name: 'T copy' });
  });

  it("a link's related table must be visible: another tenant's answers as a missing one, a viewed base's is refused as another base", async () => {
    const link = (childId: string) => h.http.post(`${P}/tables/${mine.table}/columns`).set(as())
      .send({ title: `L${childId.slice(-4)}`, uidt: 'Links', parentId: mine.table, childId, type: 'mm' });
    const missing = await link('mmissing0000000');
    const hidden = await link(foreign.table);
    expect([hidden.status, hidden.body.error]).toEqual([missing.status, missing.body.error]);
    expect([hidden.status, hidden.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    const viewedLink = await link(viewed.table);
    expect(viewedLink.status).toBe(400);
    expect(viewedLink.body.msg).toMatch(/across bases/);
  });
});

describe('who may make a base (create, and duplicate: a copy is a new base)', () => {
  let h: MetaHarness;
  const owner = 'us0000000maker01';
  let base: string;

  beforeAll(async () => {
    h = await startMetaHarness();
    base = (await h.http.post(`${P}/projects`).set(h.as({ id: owner })).send({ title: 'Made' }).expect(200)).body.id;
    h.auth.roles.set(`${base}:us0000000maker02`, 'creator');
  });
  afterAll(async () => { await h.stop(); });

  it('an org-level viewer may not create a base, nor duplicate one it is a creator of (403)', async () => {
    const viewer = h.as({ id: 'us0000000maker02', roles: ['org-level-viewer'] });
    const created = await h.http.post(`${P}/projects`).set(viewer).send({ title: 'No' });
    expect([created.status, created.body.error]).toEqual([403, 'ERR_FORBIDDEN']);
    const copied = await h.http.post(`${P}/duplicate/${base}`).set(viewer).send({});
    expect([copied.status, copied.body.error]).toEqual([403, 'ERR_FORBIDDEN']);
  });

  it("a base-scoped API token may not create a base, nor duplicate its own base (403), but reads it", async () => {
    const token = h.as({ id: owner, via: 'api-token', tokenId: 'tk0000000maker1', baseScope: base });
    await h.http.get(`${P}/projects/${base}`).set(token).expect(200);
    const created = await h.http.post(`${P}/projects`).set(token).send({ title: 'Escaped' });
    expect([created.status, created.body.error]).toEqual([403, 'ERR_FORBIDDEN']);
    const copied = await h.http.post(`${P}/duplicate/${base}`).set(token).send({});
    expect([copied.status, copied.body.error]).toEqual([403, 'ERR_FORBIDDEN']);
    const list = await h.http.get(`${P}/projects`).set(h.as({ id: owner })).expect(200);
    expect(list.body.list.map((b: { title: string }) => b.title)).not.toContain('Escaped');
  });

  it('an org-level creator (and its org token) creates and duplicates', async () => {
    await h.http.post(`${P}/projects`).set(h.as({ id: owner, via: 'api-token', tokenId: 'tk0000000maker2' })).send({ title: 'By token' }).expect(200);
    await h.http.post(`${P}/duplicate/${base}`).set(h.as({ id: owner })).send({ options: { excludeData: true } }).expect(200);
  });
});
