import { startMetaHarness, type MetaHarness } from './meta-app.harness';

const P = '/api/v1/db/meta';
let h: MetaHarness;

beforeAll(async () => { h = await startMetaHarness(); });
afterAll(async () => { await h.stop(); });

/** Everything a duplicate could leave behind, counted. */
async function footprint() {
  const count = async (table: string) => Number((await h.shared.db.withSchema('meta').from(table).count<{ n: string }[]>('* as n'))[0].n);
  const schemas = await h.shared.dataDb.raw("select count(*)::int as n from information_schema.schemata where schema_name like 'p%'");
  return {
    bases: await count('bases'), sources: await count('sources'), tables: await count('tables'), columns: await count('columns'),
    views: await count('views'), outbox: await count('outbox'), schemas: schemas.rows[0].n as number,
  };
}

/** A base with two tables of two rows each, a sort on the first; returns ids. */
async function sourceBase(title: string) {
  const base = (await h.http.post(`${P}/projects`).set(h.superUser).send({ title }).expect(200)).body;
  const tables = [];
  for (const t of ['First', 'Second']) {
    const table = (await h.http.post(`${P}/projects/${base.id}/tables`).set(h.superUser).send({ title: t, columns: [{ title: 'N', uidt: 'Number' }] }).expect(200)).body;
    await h.shared.dataDb.withSchema(base.id).table(table.table_name).insert([{ N: 1 }, { N: 2 }]);
    tables.push(table);
  }
  return { base, tables };
}

describe('duplicating a base is all or nothing', () => {
  it('a failure mid-copy (the second table cannot be read) leaves no base, table, view, event or schema', async () => {
    const { base, tables } = await sourceBase('Broken');
    await h.shared.dataDb.raw('ALTER TABLE ??.?? DROP COLUMN ??', [base.id, tables[1].table_name, 'N']);
    const before = await footprint();
    const calls = h.auth.hookCalls.length;
    const res = await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({});
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await footprint()).toEqual(before);
    expect(h.auth.hookCalls.length).toBe(calls);
  });

  it('a failed hooks copy, and a failed owner grant after it, leave nothing either (the copied hooks are removed)', async () => {
    const { base } = await sourceBase('HooksFail');
    const before = await footprint();
    h.auth.failHookCopy = true;
    await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(500);
    h.auth.failHookCopy = false;
    expect(await footprint()).toEqual(before);

    h.auth.failGrants = 'error';
    await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(503);
    h.auth.failGrants = undefined;
    expect(await footprint()).toEqual(before);
    const [copy, undo] = h.auth.hookCalls.slice(-2);
    expect(copy.path).toBe('/internal/hooks/copy');
    expect(undo).toEqual({ path: '/internal/hooks/delete-of-tables', body: { tableIds: copy.body.tables.map((t: { to: string }) => t.to) } });
  });

  it('copies hooks unless excludeHooks, mapping tables and columns, for bases and tables', async () => {
    const { base, tables } = await sourceBase('WithHooks');
    const full = (await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(200)).body;
    const copied = (await h.http.get(`${P}/projects/${full.id}/tables`).set(h.superUser).expect(200)).body.list;
    const call = h.auth.hookCalls.at(-1)!;
    expect(call.path).toBe('/internal/hooks/copy');
    expect(call.body.baseId).toBe(full.id);
    expect(call.body.tables).toEqual(tables.map((t, i) => ({ from: t.id, to: copied.find((c: { title: string }) => c.title === ['First', 'Second'][i]).id })));
    const sourceColumn = tables[0].columns.find((c: { title: string }) => c.title === 'N');
    const copyColumn = (await h.http.get(`${P}/tables/${call.body.tables[0].to}`).set(h.superUser)).body.columns.find((c: { title: string }) => c.title === 'N');
    expect(call.body.columns[sourceColumn.id]).toBe(copyColumn.id);

    const calls = h.auth.hookCalls.length;
    await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({ options: { excludeHooks: true } }).expect(200);
    await h.http.post(`${P}/duplicate/${base.id}/table/${tables[0].id}`).set(h.superUser).send({ options: { excludeHooks: true } }).expect(200);
    expect(h.auth.hookCalls.length).toBe(calls);
    const dup = (await h.http.post(`${P}/duplicate/${base.id}/table/${tables[0].id}`).set(h.superUser).send({}).expect(200)).body;
    expect(h.auth.hookCalls.at(-1)).toMatchObject({ path: '/internal/hooks/copy', body: { baseId: base.id, tables: [{ from: tables[0].id, to: dup.id }] } });
  });

  it('a table duplicate whose hooks copy fails leaves no table behind', async () => {
    const { base, tables } = await sourceBase('TableHooksFail');
    const before = await footprint();
    h.auth.failHookCopy = true;
    await h.http.post(`${P}/duplicate/${base.id}/table/${tables[0].id}`).set(h.superUser).send({}).expect(500);
    h.auth.failHookCopy = false;
    expect(await footprint()).toEqual(before);
    const physical = await h.shared.dataDb.raw('select count(*)::int as n from information_schema.tables where table_schema = ?', [base.id]);
    expect(physical.rows[0].n).toBe(2);
  });

  it('a duplicate with data asks storage to share the source\'s attachments with the copy, last; a failed share leaves nothing', async () => {
    const { base, tables } = await sourceBase('Shared');
    const full = (await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(200)).body;
    const copied = (await h.http.get(`${P}/projects/${full.id}/tables`).set(h.superUser).expect(200)).body.list;
    const share = h.auth.shareCalls.at(-1);
    expect(share).toMatchObject({ fromBaseId: base.id, toBaseId: full.id });
    expect(share.tables.map((t: { from: string; to: string }) => [t.from, t.to])).toEqual(tables.map((t, i) => [t.id, copied.find((c: { title: string }) => c.title === ['First', 'Second'][i]).id]));
    const column = tables[0].columns.find((c: { title: string }) => c.title === 'N');
    const copyColumn = (await h.http.get(`${P}/tables/${share.tables[0].to}`).set(h.superUser)).body.columns.find((c: { title: string }) => c.title === 'N');
    expect(share.tables[0].columns[column.id]).toBe(copyColumn.id);

    const calls = h.auth.shareCalls.length;
    await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({ options: { excludeData: true } }).expect(200);
    expect(h.auth.shareCalls.length).toBe(calls);

    const before = await footprint();
    h.auth.failShare = true;
    await h.http.post(`${P}/duplicate/${base.id}`).set(h.superUser).send({}).expect(500);
    h.auth.failShare = false;
    expect(await footprint()).toEqual(before);
  });
});
