import { aliasesOf, metaEndpoints, pathParamNames } from '@tabula/contracts';
import { startMetaHarness, type MetaHarness } from './meta-app.harness';

/**
 * NocoDB's v2 meta paths (`/api/v2/meta/...`): NocoDB 0.301.3 serves each
 * from its v1 path's handler, and so does Tabula (aliases of the v1
 * contracts): the same request answers the same on both paths.
 */
const V1 = '/api/v1/db/meta';
const V2 = '/api/v2/meta';
let h: MetaHarness;
let baseId: string;
let table: { id: string; columns: { id: string; title: string }[]; views: { id: string }[] };

beforeAll(async () => {
  h = await startMetaHarness();
  baseId = (await h.http.post(`${V2}/bases/`).set(h.superUser).send({ title: 'V2 tables' }).expect(200)).body.id;
  table = (await h.http.post(`${V2}/bases/${baseId}/tables`).set(h.superUser).send({
    title: 'Orders', columns: [{ title: 'Name', uidt: 'SingleLineText' }, { title: 'Qty', uidt: 'Number' }],
  }).expect(200)).body;
});
afterAll(async () => { await h.stop(); });

const col = (title: string) => table.columns.find((c) => c.title === title)!.id;
const get = (path: string) => h.http.get(path).set(h.superUser);

describe('NocoDB v2 meta paths', () => {
  it('every v2 meta contract is an alias of a v1 contract, with its permission, scope and schemas', () => {
    const aliases = Object.values(metaEndpoints).filter((e) => e.sameAs);
    expect(aliases.length).toBe(38);
    for (const alias of aliases) {
      const original = metaEndpoints[alias.sameAs!];
      expect([alias.id, alias.path.startsWith(`${V2}/`), alias.method, alias.auth, alias.body, alias.query, alias.response])
        .toEqual([alias.id, true, original.method, original.auth, original.body, original.query, original.response]);
      expect(pathParamNames(alias.path).sort()).toEqual(pathParamNames(original.path).sort());
      expect(aliasesOf(original)).toContain(alias);
    }
  });

  it('reads answer as their v1 paths: bases, base, tables, table, views, columns, sorts, filters', async () => {
    const view = table.views[0].id;
    const sort = (await h.http.post(`${V2}/views/${view}/sorts`).set(h.superUser).send({ fk_column_id: col('Qty'), direction: 'desc' }).expect(200)).body;
    const group = (await h.http.post(`${V2}/views/${view}/filters`).set(h.superUser).send({ is_group: true, logical_op: 'and' }).expect(200)).body;
    const filter = (await h.http.post(`${V2}/views/${view}/filters`).set(h.superUser)
      .send({ fk_column_id: col('Name'), comparison_op: 'eq', value: 'x', fk_parent_id: group.id }).expect(200)).body;
    const pairs: Array<[string, string]> = [
      [`${V2}/bases/`, `${V1}/projects/`], [`${V2}/bases/${baseId}`, `${V1}/projects/${baseId}`], [`${V2}/bases/${baseId}/info`, `${V1}/projects/${baseId}/info`],
      [`${V2}/bases/${baseId}/tables`, `${V1}/projects/${baseId}/tables`], [`${V2}/tables/${table.id}`, `${V1}/tables/${table.id}`],
      [`${V2}/tables/${table.id}/views`, `${V1}/tables/${table.id}/views`], [`${V2}/tables/${table.id}/columns/hash`, `${V1}/tables/${table.id}/columns/hash`],
      [`${V2}/columns/${col('Qty')}`, `${V1}/columns/${col('Qty')}`], [`${V2}/views/${view}/sorts`, `${V1}/views/${view}/sorts`],
      [`${V2}/sorts/${sort.id}`, `${V1}/sorts/${sort.id}`], [`${V2}/views/${view}/filters`, `${V1}/views/${view}/filters`],
      [`${V2}/filters/${filter.id}`, `${V1}/filters/${filter.id}`], [`${V2}/filters/${group.id}/children`, `${V1}/filters/${group.id}/children`],
    ];
    for (const [v2, v1] of pairs) {
      const [a, b] = [await get(v2), await get(v1)];
      expect([v2, a.status, a.body]).toEqual([v2, 200, b.body]);
    }
    const source = (await get(`${V2}/bases/${baseId}`)).body.sources[0].id;
    expect((await get(`${V2}/bases/${baseId}/${source}/tables`)).body).toEqual((await get(`${V1}/projects/${baseId}/${source}/tables`)).body);
  });

  it('writes through v2 paths: table, column, view, sort, filter, base', async () => {
    await h.http.patch(`${V2}/tables/${table.id}`).set(h.superUser).send({ title: 'Orders 2' }).expect(200);
    const column = (await h.http.post(`${V2}/tables/${table.id}/columns`).set(h.superUser).send({ title: 'Note', uidt: 'SingleLineText' }).expect(200)).body;
    const noteId = column.id;
    await h.http.patch(`${V2}/columns/${noteId}`).set(h.superUser).send({ title: 'Notes', uidt: 'SingleLineText' }).expect(200);
    await h.http.post(`${V2}/columns/${noteId}/primary`).set(h.superUser).expect(200);
    const grid = (await h.http.post(`${V2}/tables/${table.id}/grids`).set(h.superUser).send({ title: 'Second' }).expect(200)).body;
    await h.http.patch(`${V2}/views/${grid.id}`).set(h.superUser).send({ title: 'Renamed' }).expect(200);
    const sort = (await h.http.post(`${V2}/views/${grid.id}/sorts`).set(h.superUser).send({ fk_column_id: noteId, direction: 'asc' }).expect(200)).body;
    await h.http.patch(`${V2}/sorts/${sort.id}`).set(h.superUser).send({ direction: 'desc' }).expect(200);
    await h.http.delete(`${V2}/sorts/${sort.id}`).set(h.superUser).expect(200);
    const filter = (await h.http.post(`${V2}/views/${grid.id}/filters`).set(h.superUser).send({ fk_column_id: noteId, comparison_op: 'eq', value: 'a' }).expect(200)).body;
    await h.http.patch(`${V2}/filters/${filter.id}`).set(h.superUser).send({ value: 'b' }).expect(200);
    await h.http.delete(`${V2}/filters/${filter.id}`).set(h.superUser).expect(200);
    await h.http.delete(`${V2}/views/${grid.id}`).set(h.superUser).expect(200);
    await h.http.post(`${V2}/columns/${col('Name')}/primary`).set(h.superUser).expect(200);
    await h.http.delete(`${V2}/columns/${noteId}`).set(h.superUser).expect(200);
    const read = (await get(`${V1}/tables/${table.id}`)).body;
    expect([read.title, read.columns.map((c: { title: string }) => c.title), read.views.length]).toEqual(['Orders 2', expect.not.arrayContaining(['Notes']), 1]);
    expect((await h.http.patch(`${V2}/bases/${baseId}`).set(h.superUser).send({ title: 'V2 renamed' }).expect(200)).body).toBe(1);
    const other = (await h.http.post(`${V2}/bases`).set(h.superUser).send({ title: 'Doomed' }).expect(200)).body.id;
    const doomed = (await h.http.post(`${V2}/bases/${other}/tables`).set(h.superUser).send({ title: 'Gone' }).expect(200)).body.id;
    expect((await h.http.delete(`${V2}/tables/${doomed}`).set(h.superUser).expect(200)).body).toBe(true);
    expect((await h.http.delete(`${V2}/bases/${other}`).set(h.superUser).expect(200)).body).toBe(true);
  });

  it('lists no junction table of a many-to-many link unless includeM2M=true, on v1 and v2 (NocoDB hides them)', async () => {
    // NocoDB 0.301.3, a base with Items, Tags and an mm link: GET …/tables → Items, Tags; ?includeM2M=true → also _nc_m2m_items_tags (mm: true).
    const base = (await h.http.post(`${V2}/bases`).set(h.superUser).send({ title: 'Links' }).expect(200)).body.id;
    const mk = async (title: string) => (await h.http.post(`${V2}/bases/${base}/tables`).set(h.superUser).send({ title }).expect(200)).body.id;
    const [items, tags] = [await mk('Items'), await mk('Tags')];
    await h.http.post(`${V2}/tables/${items}/columns`).set(h.superUser).send({ title: 'Tags', uidt: 'Links', parentId: items, childId: tags, type: 'mm' }).expect(200);
    for (const path of [`${V2}/bases/${base}/tables`, `${V1}/projects/${base}/tables`]) {
      const titles = async (query: string) => (await get(`${path}${query}`).expect(200)).body.list.map((t: { title: string }) => t.title);
      expect(await titles('')).toEqual(['Items', 'Tags']);
      expect(await titles('?includeM2M=true')).toEqual(['Items', 'Tags', expect.stringMatching(/^_nc_m2m_/)]);
      expect((await get(`${path}`)).body.pageInfo.totalRows).toBe(2);
    }
  });

  it('another user sees a base and a table exactly as missing ones; no credentials is 401', async () => {
    const stranger = h.as({ id: 'us00000stranger1' });
    for (const [path, code] of [[`${V2}/bases/${baseId}/tables`, 'ERR_BASE_NOT_FOUND'], [`${V2}/tables/${table.id}`, 'ERR_TABLE_NOT_FOUND']]) {
      const other = await h.http.get(path).set(stranger);
      const missing = await h.http.get(path.replace(baseId, 'pmissing0000000').replace(table.id, 'mmissing0000000')).set(stranger);
      expect([path, other.status, other.body.error]).toEqual([path, 404, code]);
      expect([missing.status, missing.body.error]).toEqual([other.status, other.body.error]);
      expect((await h.http.get(path)).status).toBe(401);
    }
    expect((await h.http.get(`${V2}/bases/`).set(stranger).expect(200)).body.list).toEqual([]);
  });
});
