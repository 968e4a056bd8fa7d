import { startMetaHarness, waitFor, type MetaHarness } from './meta-app.harness';
import { tableColumnMatrix } from './table-column.matrix';

const P = '/api/v1/db/meta';
let h: MetaHarness;

beforeAll(async () => { h = await startMetaHarness(); });
afterAll(async () => { await h.stop(); });

describe('default source: table and column matrix', () => {
  tableColumnMatrix(() => h, async () => (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'Matrix' })).body.id);
});

describe('tables: rules and data-aware changes', () => {
  let baseId: string;
  beforeAll(async () => { baseId = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title: 'Rules' })).body.id; });
  const create = (body: object) => h.http.post(`${P}/projects/${baseId}/tables`).set(h.superUser).send(body);

  it('refuses bad table names and duplicate titles', async () => {
    for (const table_name of ['a.b', 'a/b', 'a\\b', 'x"; drop table y; --', 'x'.repeat(64)]) {
      expect([table_name, (await create({ title: `T ${table_name.length}`, table_name })).status]).toEqual([table_name, 400]);
    }
    await create({ title: 'Dup' }).expect(200);
    await create({ title: 'dup' }).expect(400);
    await create({}).expect(400);
  });

  it('quotes reserved words and keeps each base in its own schema', async () => {
    const t = (await create({ title: 'select', columns: [{ title: 'from', uidt: 'SingleLineText' }, { title: 'where', uidt: 'Number' }] }).expect(200)).body;
    const rows = await h.shared.dataDb.raw('select table_schema from information_schema.tables where table_name = ?', ['select']);
    expect(rows.rows.map((r: { table_schema: string }) => r.table_schema)).toEqual([baseId]);
    expect(t.columns.map((c: { column_name: string }) => c.column_name)).toContain('from');
  });

  it('rewrites stored values when a select option is renamed, and names rows that cannot convert', async () => {
    const t = (await create({ title: 'Sel', columns: [
      { title: 'S', uidt: 'SingleSelect', colOptions: { options: [{ title: 'red' }, { title: 'blue' }] } },
      { title: 'Txt', uidt: 'SingleLineText' },
    ] }).expect(200)).body;
    const schema = h.shared.dataDb.withSchema(baseId);
    await schema.table(t.table_name).insert([{ S: 'red', Txt: '12' }, { S: 'blue', Txt: 'abc' }]);
    const s = t.columns.find((c: { title: string }) => c.title === 'S');
    const options = s.colOptions.options.map((o: { id: string; title: string }) => (o.title === 'red' ? { ...o, title: 'crimson' } : o));
    await h.http.patch(`${P}/columns/${s.id}`).set(h.superUser).send({ colOptions: { options } }).expect(200);
    const values = await h.shared.dataDb.withSchema(baseId).from(t.table_name).orderBy('id').pluck('S');
    expect(values).toEqual(['crimson', 'blue']);
    const txt = t.columns.find((c: { title: string }) => c.title === 'Txt');
    const bad = await h.http.patch(`${P}/columns/${txt.id}`).set(h.superUser).send({ uidt: 'Number' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('rows 2');
  });

  it('publishes meta.table.deleted through the outbox', async () => {
    const t = (await create({ title: 'Gone' }).expect(200)).body;
    await h.http.delete(`${P}/tables/${t.id}`).set(h.superUser).expect(200);
    await waitFor(() => h.events.some((e) => e.type === 'meta.table.deleted' && e.key === t.id));
  });

  it('duplicates a table with its data', async () => {
    const t = (await create({ title: 'Src', columns: [{ title: 'N', uidt: 'Number' }] }).expect(200)).body;
    await h.shared.dataDb.withSchema(baseId).table(t.table_name).insert([{ N: 1 }, { N: 2 }]);
    const dup = await h.http.post(`${P}/duplicate/${baseId}/table/${t.id}`).set(h.superUser).send({}).expect(200);
    expect(dup.body.id).toMatch(/^m/);
    const copy = (await h.http.get(`${P}/tables/${dup.body.id}`).set(h.superUser).expect(200)).body;
    expect(await h.shared.dataDb.withSchema(baseId).from(copy.table_name).pluck('N')).toEqual([1, 2]);
  });
});
