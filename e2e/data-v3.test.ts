import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * NocoDB's v3 data and meta paths (`/api/v3/data/{baseId}/{tableId}/…`,
 * `/api/v3/meta/…`) against a running stack. The expected answers are
 * NocoDB 0.301.3's to the same requests (recorded from a NocoDB run beside
 * Tabula; see the comments), except where noted.
 */
let stack: TestStack;
let token: string;
let baseId: string;
let items: string;
let tags: string;
let tagsLink: string;

async function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'xc-auth': token }): Promise<{ status: number; body: any }> {
  const res = await new TestApi(stack.url).call(method, path, { body, headers });
  return { status: res.status, body: res.body };
}
const data = (path = '') => `/api/v3/data/${baseId}/${items}${path}`;
const sortJson = (s: unknown) => encodeURIComponent(JSON.stringify(s));

beforeAll(async () => {
  stack = await startTestStack(allServices);
  token = (await new TestApi(stack.url).signUp('e2e', 'data-v3@example.com')).token;
  baseId = (await raw('POST', '/api/v2/meta/bases/', { title: 'V3 base' })).body.id;
  const table = async (title: string, columns: unknown[]) => (await raw('POST', `/api/v2/meta/bases/${baseId}/tables`, { title, columns })).body.id as string;
  items = await table('Items', [
    { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
    { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
    { column_name: 'qty', title: 'Qty', uidt: 'Number' },
  ]);
  tags = await table('Tags', [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }]);
  tagsLink = (await raw('POST', `/api/v2/meta/tables/${items}/columns`, { title: 'Tags', uidt: 'Links', parentId: items, childId: tags, type: 'mm' })).body.id;
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('v3 records', () => {
  it('create, list (paging, where, sort, fields), read, count, update, delete', async () => {
    // NocoDB: 200 {"records":[{"id":1,"fields":{…,"Title":"a","Qty":1,"Tags":0}}, …]}; one object is one record.
    const made = await raw('POST', data('/records'), [{ fields: { Title: 'a', Qty: 1 } }, { fields: { Title: 'b', Qty: 2 } }, { fields: { Title: 'c' } }]);
    expect(made.status).toBe(200);
    expect(made.body.records.map((r: { id: number }) => r.id)).toEqual([1, 2, 3]);
    expect(made.body.records[0].fields).toMatchObject({ Title: 'a', Qty: 1, Tags: 0 });
    expect(made.body.records[2].fields).toMatchObject({ Title: 'c', Qty: null });
    expect((await raw('POST', data('/records'), { fields: { Title: 'd', Qty: 4 } })).body.records[0]).toMatchObject({ id: 4, fields: { Title: 'd' } });

    // NocoDB: ?pageSize=2 → ids 1,2 and "next": ".../records?pageSize=2&page=2", no prev, "nestedNext": null.
    const first = await raw('GET', data('/records?pageSize=2'));
    expect(first.body.records.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(first.body.records[0]).toEqual({ id: 1, fields: expect.objectContaining({ Title: 'a', Qty: 1, Tags: 0 }) });
    expect(new URL(first.body.next).pathname).toBe(data('/records'));
    expect(new URL(first.body.next).host).toBe(new URL(stack.url).host);
    expect(new URL(first.body.next).searchParams.get('page')).toBe('2');
    expect(first.body).not.toHaveProperty('prev');
    expect(first.body.nestedNext).toBeNull();
    // NocoDB: page 2 → ids 3,4, a prev to page 1 and no next.
    const second = await raw('GET', new URL(first.body.next).pathname + new URL(first.body.next).search);
    expect(second.body.records.map((r: { id: number }) => r.id)).toEqual([3, 4]);
    expect(new URL(second.body.prev).searchParams.get('page')).toBe('1');
    expect(second.body).not.toHaveProperty('next');
    // NocoDB: limit/offset as n8n sends them → ids 2,3.
    expect((await raw('GET', data('/records?limit=2&offset=1'))).body.records.map((r: { id: number }) => r.id)).toEqual([2, 3]);
    // NocoDB: fields=Title, sort [{"field":"Qty","direction":"desc"}], where (Qty,gt,0) → [{"id":4,"fields":{"Title":"d"}},{"id":2,…},{"id":1,…}].
    const picked = await raw('GET', data(`/records?fields=Title&sort=${sortJson([{ field: 'Qty', direction: 'desc' }])}&where=${encodeURIComponent('(Qty,gt,0)')}`));
    expect(picked.body.records).toEqual([{ id: 4, fields: { Title: 'd' } }, { id: 2, fields: { Title: 'b' } }, { id: 1, fields: { Title: 'a' } }]);
    // NocoDB: one sort object works too; v1's "-Qty" is 400 ERR_INVALID_REQUEST_BODY.
    expect((await raw('GET', data(`/records?fields=Qty&sort=${sortJson({ field: 'Qty', direction: 'desc' })}`))).body.records.map((r: { id: number }) => r.id)).toEqual([4, 2, 1, 3]);
    const badSort = await raw('GET', data('/records?sort=-Qty'));
    expect([badSort.status, badSort.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    expect(badSort.body.message).toContain("Query parameter 'sort' needs to a JSON string");

    // NocoDB: {"id":1,"fields":{"Title":"a"}}; a missing record: 404 {"error":"ERR_RECORD_NOT_FOUND","message":"Record '99' not found"}.
    expect((await raw('GET', data('/records/1?fields=Title'))).body).toEqual({ id: 1, fields: { Title: 'a' } });
    const missing = await raw('GET', data('/records/99'));
    expect([missing.status, missing.body.error, missing.body.message]).toEqual([404, 'ERR_RECORD_NOT_FOUND', "Record '99' not found"]);
    // NocoDB: {"count":4}; with where (Qty,gt,1): {"count":2}.
    expect((await raw('GET', data('/count'))).body).toEqual({ count: 4 });
    expect((await raw('GET', data(`/count?where=${encodeURIComponent('(Qty,gt,1)')}`))).body).toEqual({ count: 2 });

    // NocoDB: PATCH [{id, fields}] → the records re-read; a missing id → 404 and nothing written.
    const updated = await raw('PATCH', data('/records'), [{ id: 1, fields: { Title: 'a2' } }, { id: 2, fields: { Qty: 20 } }]);
    expect(updated.body.records.map((r: { id: number; fields: { Title: string; Qty: number } }) => [r.id, r.fields.Title, r.fields.Qty])).toEqual([[1, 'a2', 1], [2, 'b', 20]]);
    const none = await raw('PATCH', data('/records'), [{ id: 3, fields: { Title: 'never' } }, { id: 99, fields: { Title: 'zz' } }]);
    expect([none.status, none.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await raw('GET', data('/records/3'))).body.fields.Title).toBe('c');
    // NocoDB: one {id, fields} object is one record.
    expect((await raw('PATCH', data('/records'), { id: 3, fields: { Title: 'c2' } })).body.records[0]).toMatchObject({ id: 3, fields: { Title: 'c2' } });

    // NocoDB: DELETE [{id}] → {"records":[{"id":4,"deleted":true}]}; a missing id → 404.
    expect((await raw('DELETE', data('/records'), [{ id: 4 }])).body).toEqual({ records: [{ id: 4, deleted: true }] });
    expect((await raw('DELETE', data('/records'), [{ id: 99 }])).status).toBe(404);
    expect((await raw('GET', data('/count'))).body).toEqual({ count: 3 });
  });

  it('answers NocoDB\'s errors for malformed bodies and missing bases, tables and fields', async () => {
    // NocoDB: 400 "Properties 'Title' on index 0 is not allowed. All record parameters need to be put inside 'fields' property".
    const flat = await raw('POST', data('/records'), [{ Title: 'nofields' }]);
    expect([flat.status, flat.body.error, flat.body.message]).toEqual([400, 'ERR_INVALID_REQUEST_BODY', "Properties 'Title' on index 0 is not allowed. All record parameters need to be put inside 'fields' property"]);
    // NocoDB: 400 "Property 'id' is required on index 0" (update and delete).
    const noId = await raw('PATCH', data('/records'), [{ fields: { Title: 'x' } }]);
    expect([noId.status, noId.body.message]).toEqual([400, "Property 'id' is required on index 0"]);
    expect((await raw('DELETE', data('/records'), [{}])).body.message).toBe("Property 'id' is required on index 0");
    // NocoDB: [] → {"records":[]}.
    expect((await raw('POST', data('/records'), [])).body).toEqual({ records: [] });
    // NocoDB: 422 ERR_BASE_NOT_FOUND / ERR_TABLE_NOT_FOUND; a table of another base is a missing table.
    const base = await raw('GET', `/api/v3/data/pmissing0000000/${items}/records`);
    expect([base.status, base.body.error, base.body.message]).toEqual([422, 'ERR_BASE_NOT_FOUND', "Base 'pmissing0000000' not found"]);
    const tbl = await raw('GET', `/api/v3/data/${baseId}/mmissing0000000/records`);
    expect([tbl.status, tbl.body.error, tbl.body.message]).toEqual([422, 'ERR_TABLE_NOT_FOUND', "Table 'mmissing0000000' not found"]);
    const other = (await raw('POST', '/api/v2/meta/bases/', { title: 'Other' })).body.id;
    const elsewhere = await raw('GET', `/api/v3/data/${other}/${items}/records`);
    expect([elsewhere.status, elsewhere.body.error]).toEqual([422, 'ERR_TABLE_NOT_FOUND']);
    // NocoDB: 422 ERR_FIELD_NOT_FOUND "Field 'cmissing0000000' not found".
    const field = await raw('GET', data('/links/cmissing0000000/1'));
    expect([field.status, field.body.error]).toEqual([422, 'ERR_FIELD_NOT_FOUND']);
    expect((await raw('GET', data('/records'), undefined, {})).status).toBe(401);
    // NocoDB (v2 and v3 reads): 422 ERR_INVALID_PK_VALUE "Primary key value 'abc' is invalid for column 'Id'"; a number that names no row stays 404.
    for (const path of [data('/records/abc'), `/api/v2/tables/${items}/records/abc`]) {
      const bad = await raw('GET', path);
      expect([bad.status, bad.body.error, bad.body.message]).toEqual([422, 'ERR_INVALID_PK_VALUE', "Primary key value 'abc' is invalid for column 'Id'"]);
    }
    expect((await raw('GET', data('/records/99999'))).status).toBe(404);
    // v1 keeps its specification's rule: a key of the wrong type is a missing record.
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/Items/abc`)).status).toBe(404);
  });

  it('links: link, list, unlink', async () => {
    await raw('POST', `/api/v3/data/${baseId}/${tags}/records`, [{ fields: { Name: 't1' } }, { fields: { Name: 't2' } }, { fields: { Name: 't3' } }]);
    const links = data(`/links/${tagsLink}`);
    // NocoDB: POST [{id}…] → 200 {"success":true}; a missing related record → 404 and nothing linked.
    expect(await raw('POST', `${links}/1`, [{ id: 1 }, { id: 2 }, { id: 3 }])).toEqual({ status: 200, body: { success: true } });
    expect((await raw('POST', `${links}/1`, [{ id: 99 }])).status).toBe(404);
    // NocoDB: {"records":[{"id":1,"fields":{"Name":"t1"}},…]} (key and display value); pageSize=2 → a next link.
    const list = await raw('GET', `${links}/1`);
    expect(list.body.records).toEqual([{ id: 1, fields: { Name: 't1' } }, { id: 2, fields: { Name: 't2' } }, { id: 3, fields: { Name: 't3' } }]);
    expect((await raw('GET', `${links}/1?pageSize=2`)).body.next).toBeDefined();
    // NocoDB: where (Name,eq,t2) → t2 only (NocoDB leaves the id out when `fields` names no key; Tabula keeps it).
    expect((await raw('GET', `${links}/1?fields=Name&where=${encodeURIComponent('(Name,eq,t2)')}`)).body.records).toEqual([{ id: 2, fields: { Name: 't2' } }]);
    // NocoDB: the links of a missing record → 404 ERR_RECORD_NOT_FOUND.
    expect((await raw('GET', `${links}/99`)).status).toBe(404);
    // NocoDB: DELETE [{id}] → {"success":true}, again (not linked) too.
    expect((await raw('DELETE', `${links}/1`, [{ id: 3 }])).body).toEqual({ success: true });
    expect((await raw('DELETE', `${links}/1`, [{ id: 3 }])).body).toEqual({ success: true });
    expect((await raw('GET', data('/records/1?fields=Tags'))).body).toEqual({ id: 1, fields: { Tags: 2 } });
  });
});

describe('v3 meta', () => {
  it('bases of any workspace id, a base, its tables, a table with fields and views, a field', async () => {
    // NocoDB: any workspace id lists the caller's bases: {"list":[{"id","title","meta","workspace_id","created_at","updated_at"}]}.
    for (const ws of ['nc', 'wanything']) {
      const bases = await raw('GET', `/api/v3/meta/workspaces/${ws}/bases`);
      expect(bases.body.list.find((b: { id: string }) => b.id === baseId)).toMatchObject({ id: baseId, title: 'V3 base', workspace_id: 'nc' });
    }
    expect((await raw('GET', `/api/v3/meta/bases/${baseId}`)).body).toMatchObject({ id: baseId, title: 'V3 base', workspace_id: 'nc' });
    // NocoDB: {"list":[{"id","title":"Items","base_id","workspace_id"},{…"Tags"…}]} (no junction table).
    const tables = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables`)).body.list;
    expect(tables.map((t: { title: string }) => t.title)).toEqual(['Items', 'Tags']);
    expect(tables[0]).toEqual({ id: items, title: 'Items', base_id: baseId, workspace_id: 'nc' });
    // NocoDB: views [{id,title,"view_type":"grid"}], display_field_id, fields [{id,table_id,title,type,…}] without system fields.
    const table = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}`)).body;
    expect(table.views).toEqual([{ id: expect.any(String), title: 'Items', view_type: 'grid' }]);
    expect(table.fields.map((f: { title: string; type: string }) => [f.title, f.type])).toEqual([['Id', 'ID'], ['Title', 'SingleLineText'], ['Qty', 'Number'], ['Tags', 'Links']]);
    expect(table.display_field_id).toBe(table.fields[1].id);
    const link = { id: tagsLink, table_id: items, title: 'Tags', type: 'Links', system: false, options: { related_table_id: tags, relation_type: 'mm' } };
    expect(table.fields[3]).toEqual(link);
    // NocoDB: both field paths answer the field; another base's or a missing one → 422.
    expect((await raw('GET', `/api/v3/meta/bases/${baseId}/fields/${tagsLink}`)).body).toEqual(link);
    expect((await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}/fields/${tagsLink}`)).body).toEqual(link);
    const missingField = await raw('GET', `/api/v3/meta/bases/${baseId}/fields/cmissing0000000`);
    expect([missingField.status, missingField.body.error, missingField.body.message]).toEqual([422, 'ERR_FIELD_NOT_FOUND', "Field 'cmissing0000000' not found"]);
    const missingBase = await raw('GET', '/api/v3/meta/bases/pmissing0000000/tables');
    expect([missingBase.status, missingBase.body.error]).toEqual([422, 'ERR_BASE_NOT_FOUND']);
    const wrongBase = await raw('GET', `/api/v3/meta/bases/${(await raw('POST', '/api/v2/meta/bases/', { title: 'Elsewhere' })).body.id}/tables/${items}`);
    expect([wrongBase.status, wrongBase.body.error]).toEqual([422, 'ERR_TABLE_NOT_FOUND']);
  });

  it('a duplicate table or field title: 422 ERR_DUPLICATE_IN_ALIAS, as NocoDB answers it; nothing is made', async () => {
    // NocoDB: {"error":"ERR_DUPLICATE_IN_ALIAS","message":"Duplicate table alias 'Items' at base 'p…'"}.
    const table = await raw('POST', `/api/v3/meta/bases/${baseId}/tables`, { title: 'items' });
    expect([table.status, table.body.error, table.body.message]).toEqual([422, 'ERR_DUPLICATE_IN_ALIAS', `Duplicate table alias 'items' at base '${baseId}'`]);
    // NocoDB: "Duplicate column alias 'Title' at table 'm…', base 'p…'".
    const field = await raw('POST', `/api/v3/meta/bases/${baseId}/tables/${items}/fields`, { title: 'Title', type: 'SingleLineText' });
    expect([field.status, field.body.error, field.body.message]).toEqual([422, 'ERR_DUPLICATE_IN_ALIAS', `Duplicate column alias 'Title' at table '${items}', base '${baseId}'`]);
    const qty = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}`)).body.fields.find((f: { title: string }) => f.title === 'Qty');
    const renamed = await raw('PATCH', `/api/v3/meta/bases/${baseId}/fields/${qty.id}`, { title: 'Title' });
    expect([renamed.status, renamed.body.error]).toEqual([422, 'ERR_DUPLICATE_IN_ALIAS']);
    const tables = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables`)).body.list;
    expect(tables.filter((t: { title: string }) => t.title.toLowerCase() === 'items')).toHaveLength(1);
    // v1 keeps its answer: 400 ERR_INVALID_REQUEST_BODY.
    expect((await raw('POST', `/api/v1/db/meta/projects/${baseId}/tables`, { title: 'Items', table_name: 'items2', columns: [] })).status).toBe(400);
  });
});

describe('v3 view settings: sorts, filters, view columns', () => {
  it('sorts: list, create (one per field), update by id, delete; the records follow them', async () => {
    const table = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}`)).body;
    const view = table.views[0].id;
    const qty = table.fields.find((f: { title: string }) => f.title === 'Qty').id;
    const sorts = `/api/v3/meta/bases/${baseId}/views/${view}/sorts`;
    // NocoDB: {"list":[]}; POST → {"id","field_id","direction":"desc"}; the same field again → 400 "Sort already exists for this field".
    expect((await raw('GET', sorts)).body).toEqual({ list: [] });
    const made = await raw('POST', sorts, { field_id: qty, direction: 'desc' });
    expect([made.status, made.body]).toEqual([200, { id: expect.any(String), field_id: qty, direction: 'desc' }]);
    const again = await raw('POST', sorts, { field_id: qty, direction: 'asc' });
    expect([again.status, again.body.error, again.body.message]).toEqual([400, 'ERR_INVALID_REQUEST_BODY', 'Sort already exists for this field']);
    expect((await raw('POST', sorts, { field_id: 'cmissing0000000' })).status).toBe(404);
    const qtys = async () => (await raw('GET', `/api/v3/data/${baseId}/${items}/records?viewId=${view}`)).body.records.map((r: { fields: { Qty: number } }) => r.fields.Qty);
    const desc = await qtys();
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    // The table spelling answers the same list; PATCH by id → the sort; DELETE → {} and a second time 404 "Sort not found".
    expect((await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}/views/${view}/sorts`)).body).toEqual({ list: [made.body] });
    expect((await raw('PATCH', sorts, { id: made.body.id, direction: 'asc' })).body).toEqual({ ...made.body, direction: 'asc' });
    const asc = await qtys();
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect((await raw('DELETE', sorts, { id: made.body.id })).body).toEqual({});
    const gone = await raw('DELETE', sorts, { id: made.body.id });
    expect([gone.status, gone.body.message]).toEqual([404, 'Sort not found']);
    expect((await raw('GET', sorts)).body).toEqual({ list: [] });
    // NocoDB: a missing view or base → 422 ERR_VIEW_NOT_FOUND / ERR_BASE_NOT_FOUND; a table that is not the view's → 422 ERR_TABLE_NOT_FOUND.
    const missing = await raw('GET', `/api/v3/meta/bases/${baseId}/views/vwmissing0000000/sorts`);
    expect([missing.status, missing.body.error]).toEqual([422, 'ERR_VIEW_NOT_FOUND']);
    const wrongTable = await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${tags}/views/${view}/sorts`);
    expect([wrongTable.status, wrongTable.body.error]).toEqual([422, 'ERR_TABLE_NOT_FOUND']);
  });

  it('filters: the root group tree, filters joining it, a group, update by id, delete (and root)', async () => {
    const table = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}`)).body;
    const view = table.views[0].id;
    const [title, qty] = ['Title', 'Qty'].map((t) => table.fields.find((f: { title: string }) => f.title === t).id);
    const filters = `/api/v3/meta/bases/${baseId}/views/${view}/filters`;
    const count = async () => (await raw('GET', `/api/v3/data/${baseId}/${items}/count?viewId=${view}`)).body.count as number;
    const all = await count();
    // NocoDB: no filters → {}; POST a filter → {"id":"root","group_operator":"AND","filters":[{"id","field_id","operator","value"}]}.
    expect((await raw('GET', filters)).body).toEqual({});
    const one = await raw('POST', filters, { field_id: qty, operator: 'gt', value: '100000' });
    expect([one.status, one.body]).toEqual([200, { id: 'root', group_operator: 'AND', filters: [{ id: expect.any(String), field_id: qty, operator: 'gt', value: '100000' }] }]);
    expect(await count()).toBe(0);
    // A group body at the root adds its filters to the root; another operator than the root's → 400.
    const grouped = await raw('POST', filters, { group_operator: 'AND', filters: [{ field_id: title, operator: 'neq', value: 'zzz' }] });
    expect(grouped.body.filters.map((f: { field_id: string }) => f.field_id)).toEqual([qty, title]);
    const other = await raw('POST', filters, { group_operator: 'OR', filters: [{ field_id: title, operator: 'eq', value: 'x' }] });
    expect([other.status, other.body.message]).toEqual([400, 'A root group with a different group operator already exists. Existing: AND, New: OR']);
    // PATCH {id, value} → the tree with the new value, and the records follow.
    const updated = await raw('PATCH', filters, { id: one.body.filters[0].id, value: '-1' });
    expect(updated.body.filters[0]).toEqual({ id: one.body.filters[0].id, field_id: qty, operator: 'gt', value: '-1' });
    expect(await count()).toBeGreaterThan(0);
    // A root group body joined by another operator than the root's → 400 (NocoDB's message).
    const nested = await raw('POST', `/api/v3/meta/bases/${baseId}/tables/${items}/views/${view}/filters`, { group_operator: 'OR', filters: [{ field_id: title, operator: 'eq', value: 'a' }, { field_id: title, operator: 'eq', value: 'b' }] });
    expect(nested.status).toBe(400);
    // NocoDB: DELETE {id} → {}; a missing id → 400 "Filter not found"; {id:"root"} clears the view.
    expect((await raw('DELETE', filters, { id: one.body.filters[0].id })).body).toEqual({});
    const missing = await raw('DELETE', filters, { id: 'fimissing000000' });
    expect([missing.status, missing.body.message]).toEqual([400, 'Filter not found']);
    expect((await raw('DELETE', filters, { id: 'root' })).body).toEqual({});
    expect((await raw('GET', filters)).body).toEqual({});
    expect(await count()).toBe(all);
  });

  it('view columns: { fields: { <field id>: … } }; PATCH hides and shows a field', async () => {
    const table = (await raw('GET', `/api/v3/meta/bases/${baseId}/tables/${items}`)).body;
    const view = table.views[0].id;
    const qty = table.fields.find((f: { title: string }) => f.title === 'Qty').id;
    const columns = `/api/v3/meta/views/${view}/columns`;
    const listed = (await raw('GET', columns)).body.fields;
    expect(listed[qty]).toMatchObject({ fk_view_id: view, fk_column_id: qty, show: true });
    // NocoDB: PATCH [{id, show:false}] → {}; {fields:{<id>:{show:true}}} → {}.
    expect((await raw('PATCH', columns, [{ id: qty, show: false }])).body).toEqual({});
    expect((await raw('GET', columns)).body.fields[qty].show).toBe(false);
    const record = (await raw('GET', `/api/v3/data/${baseId}/${items}/records?viewId=${view}`)).body.records[0];
    expect(Object.keys(record.fields)).not.toContain('Qty');
    expect((await raw('PATCH', columns, { fields: { [qty]: { show: true } } })).body).toEqual({});
    expect((await raw('GET', columns)).body.fields[qty].show).toBe(true);
    const missing = await raw('GET', '/api/v3/meta/views/vwmissing0000000/columns');
    expect([missing.status, missing.body.error]).toEqual([422, 'ERR_VIEW_NOT_FOUND']);
  });
});
