import { startMetaHarness, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
let h: MetaHarness;
let table: { id: string; columns: { id: string; title: string }[]; views: { id: string }[] };

beforeAll(async () => {
  h = await startMetaHarness();
  const base = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'Views' })).body;
  table = (await h.http.post(`${P}/projects/${base.id}/tables`).set(h.superUser).send({
    title: 'T', columns: [{ title: 'A', uidt: 'SingleLineText' }, { title: 'B', uidt: 'Number' }],
  })).body;
});
afterAll(async () => { await h.stop(); });

const col = (title: string) => table.columns.find((c) => c.title === title)!.id;

describe('views', () => {
  it('lists views and creates grids', async () => {
    const grid = await h.http.post(`${P}/tables/${table.id}/grids`).set(h.superUser).send({ title: 'Second' }).expect(200);
    expect(grid.body).toMatchObject({ title: 'Second', type: 3, is_default: false });
    const list = await h.http.get(`${P}/tables/${table.id}/views`).set(h.superUser).expect(200);
    expect(list.body.list.map((v: { title: string }) => v.title)).toEqual(['T', 'Second']);
    await h.http.post(`${P}/tables/${table.id}/grids`).set(h.superUser).send({ title: 'second' }).expect(400);
  });
});

describe('sorts', () => {
  it('orders in creation sequence, push_to_top, count-* only on links, missing 404', async () => {
    const view = table.views[0].id;
    const s1 = (await h.http.post(`${P}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: col('A'), direction: 'asc' }).expect(200)).body;
    const s2 = (await h.http.post(`${P}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: col('B'), direction: 'desc' }).expect(200)).body;
    expect([s1.order, s2.order]).toEqual([1, 2]);
    expect(s1).toMatchObject({ fk_model_id: table.id, fk_view_id: view });
    const top = (await h.http.post(`${P}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: col('B'), direction: 'asc', push_to_top: true })).body;
    const list = (await h.http.get(`${P}/views/${view}/sorts`).set(h.superUser).expect(200)).body;
    expect(list.list.map((s: { id: string }) => s.id)).toEqual([top.id, s1.id, s2.id]);
    expect(list.pageInfo.totalRows).toBe(3);
    await h.http.post(`${P}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: col('A'), direction: 'count-asc' }).expect(400);
    await h.http.post(`${P}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: 'cmissing0000000', direction: 'asc' }).expect(404);
    const patched = await h.http.patch(`${P}/sorts/${s1.id}`).set(h.superUser).send({ direction: 'desc' }).expect(200);
    expect(patched.body.direction).toBe('desc');
    expect((await h.http.delete(`${P}/sorts/${s1.id}`).set(h.superUser).expect(200)).body).toEqual({ success: true });
    await h.http.get(`${P}/sorts/${s1.id}`).set(h.superUser).expect(404);
  });
});

describe('filters', () => {
  it('creates groups with children, reads, updates and deletes', async () => {
    const view = table.views[0].id;
    const group = (await h.http.post(`${P}/views/${view}/filters`).set(h.superUser).send({
      is_group: true, logical_op: 'or', children: [{ fk_column_id: col('A'), comparison_op: 'eq', value: 'x' }],
    }).expect(200)).body;
    const children = (await h.http.get(`${P}/filters/${group.id}/children`).set(h.superUser).expect(200)).body.list;
    expect(children).toHaveLength(1);
    const patched = await h.http.patch(`${P}/filters/${children[0].id}`).set(h.superUser).send({ value: 'y' }).expect(200);
    expect(patched.body.value).toBe('y');
    const list = (await h.http.get(`${P}/views/${view}/filters`).set(h.superUser).expect(200)).body.list;
    expect(list[0].children[0].value).toBe('y');
    await h.http.delete(`${P}/filters/${group.id}`).set(h.superUser).expect(200);
    await h.http.get(`${P}/filters/${children[0].id}`).set(h.superUser).expect(404);
  });
});

describe('internal API', () => {
  it('serves table contexts to services only', async () => {
    const svc = { 'x-tabula-identity': (await import('@tabula/auth')).signIdentity({ kind: 'service', id: 'data', roles: [] }, (await import('./meta-app.harness')).INTERNAL) };
    const byId = await h.http.get(`/internal/tables/${table.id}`).set(svc).expect(200);
    expect(byId.body.source).toMatchObject({ type: 'pg', is_meta: true });
    expect(byId.body.table.columns.length).toBeGreaterThan(6);
    const base = byId.body.base.id;
    await h.http.get(`/internal/bases/${base}/tables/T`).set(svc).expect(200);
    await h.http.get(`/internal/bases/${base}/tables/${byId.body.table.table_name}`).set(svc).expect(200);
    // Base titles are resolved per caller (issue 17 defect 1): internally only candidates are answered.
    await h.http.get(`/internal/bases/Views/tables/${byId.body.table.table_name}`).set(svc).expect(404);
    expect((await h.http.get('/internal/bases/Views/candidates').set(svc).expect(200)).body.byTitle).toContain(base);
    await h.http.get(`/internal/bases/${base}/tables/nope`).set(svc).expect(404);
    const v = await h.http.get(`/internal/views/${table.views[0].id}`).set(svc).expect(200);
    expect(v.body.view.id).toBe(table.views[0].id);
    await h.http.get(`/internal/tables/${table.id}`).set(h.superUser).expect(403);
  });
});
