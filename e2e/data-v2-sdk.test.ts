import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * nocodb-sdk 0.301.3's v2 data client (`dbDataTableRow`, `/api/v2/tables/…`)
 * and the v2 meta calls n8n's pickers make, against a running stack. The
 * expected answers are NocoDB 0.301.3's to the same requests (recorded from a
 * NocoDB run beside Tabula; see the comments), except where Tabula's v1 rules
 * differ on purpose (the primary key comes with `fields`).
 */
let stack: TestStack;
let api: Api<unknown>;
let token: string;
let baseId: string;
let items: string;
let tags: string;
let tagsLink: string;

async function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'xc-auth': token }): Promise<{ status: number; body: any }> {
  const res = await new TestApi(stack.url).call(method, path, { body, headers });
  return { status: res.status, body: res.body };
}

beforeAll(async () => {
  stack = await startTestStack(allServices, { SVC_BULK_MAX_RECORDS: '50' });
  token = (await new TestApi(stack.url).signUp('e2e', 'data-v2-sdk@example.com')).token;
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  baseId = (await raw('POST', '/api/v2/meta/bases/', { title: 'V2 base' })).body.id;
  const table = async (title: string, columns: unknown[]) => (await raw('POST', `/api/v2/meta/bases/${baseId}/tables`, { title, columns })).body.id as string;
  items = await table('Items', [
    { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
    { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
    { column_name: 'qty', title: 'Qty', uidt: 'Number' },
    { column_name: 'files', title: 'Files', uidt: 'Attachment' },
  ]);
  tags = await table('Tags', [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'name', title: 'Name', uidt: 'SingleLineText' }]);
  tagsLink = (await raw('POST', `/api/v2/meta/tables/${items}/columns`, { title: 'Tags', uidt: 'Links', parentId: items, childId: tags, type: 'mm' })).body.id;
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('nocodb-sdk dbDataTableRow (v2 data API)', () => {
  it('create (one and many), list, read, count, update, delete', async () => {
    const rows = api.dbDataTableRow;
    // NocoDB: {"Id":1}, then [{"Id":2},{"Id":3}].
    expect(await rows.create(items, { Title: 'a', Qty: 1 })).toEqual({ Id: 1 });
    expect(await rows.create(items, [{ Title: 'b', Qty: 2 }, { Title: 'c', Qty: 3 }])).toEqual([{ Id: 2 }, { Id: 3 }]);
    // NocoDB: ?limit=1&offset=1&where=(Qty,gt,0)&sort=-Qty&fields=Title,Qty → [{"Title":"b","Qty":2}], page 2 of 3 (Tabula adds the key).
    const page = await rows.list(items, { where: '(Qty,gt,0)', sort: '-Qty', fields: ['Title', 'Qty'], limit: 1, offset: 1 });
    expect(page.list).toEqual([{ Id: 2, Title: 'b', Qty: 2 }]);
    expect(page.pageInfo).toEqual({ totalRows: 3, page: 2, pageSize: 1, isFirstPage: false, isLastPage: false });
    const all = await rows.list(items, {});
    expect(all.list.map((r) => (r as { Title: string }).Title)).toEqual(['a', 'b', 'c']);
    expect(all.list[0]).toMatchObject({ Id: 1, Title: 'a', Qty: 1, Tags: 0 });
    // NocoDB: the record with every field; ?fields=Title → {"Title":"a"} (Tabula adds the key).
    expect(await rows.read(items, '1', {})).toEqual(all.list[0]);
    expect(await rows.read(items, '1', { fields: 'Title' } as never)).toEqual({ Id: 1, Title: 'a' });
    expect(await rows.count(items, { where: '(Qty,gt,1)' })).toEqual({ count: 2 });
    // NocoDB: [{"Id":1},{"Id":2}]; the values are written.
    expect(await rows.update(items, [{ Id: 1, Title: 'a2' }, { Id: 2, Qty: 20 }])).toEqual([{ Id: 1 }, { Id: 2 }]);
    expect(await rows.read(items, '2', {})).toMatchObject({ Title: 'b', Qty: 20 });
    expect(await rows.delete(items, [{ Id: 3 }])).toEqual([{ Id: 3 }]);
    expect(await rows.count(items, {})).toEqual({ count: 2 });
  });

  it('nestedLink, nestedList and nestedUnlink', async () => {
    const rows = api.dbDataTableRow;
    expect(await rows.create(tags, [{ Name: 't1' }, { Name: 't2' }])).toEqual([{ Id: 1 }, { Id: 2 }]);
    // NocoDB: POST [{"Id":1},{"Id":2}] → 201 true; GET → [{Id, Name}] (key and display value).
    const linked = await raw('POST', `/api/v2/tables/${items}/links/${tagsLink}/records/1`, [{ Id: 1 }, { Id: 2 }]);
    expect([linked.status, linked.body]).toEqual([201, true]);
    expect(await rows.nestedLink(items, tagsLink, '2', [{ Id: 2 }])).toBe(true);
    const list = await rows.nestedList(items, tagsLink, '1', {});
    expect(list.list).toEqual([{ Id: 1, Name: 't1' }, { Id: 2, Name: 't2' }]);
    expect(list.pageInfo).toMatchObject({ totalRows: 2, page: 1, isFirstPage: true, isLastPage: true });
    expect((await rows.nestedList(items, tagsLink, '1', { where: '(Name,eq,t2)' } as never)).list).toEqual([{ Id: 2, Name: 't2' }]);
    expect((await rows.list(items, { fields: ['Tags'] })).list).toEqual([{ Id: 1, Tags: 2 }, { Id: 2, Tags: 1 }]);
    // NocoDB: DELETE [{"Id":2}] → 200 true; again (not linked) → 200 true.
    expect(await rows.nestedUnlink(items, tagsLink, '1', [{ Id: 2 }])).toBe(true);
    expect(await rows.nestedUnlink(items, tagsLink, '1', [{ Id: 2 }])).toBe(true);
    expect((await rows.nestedList(items, tagsLink, '1', {})).list).toEqual([{ Id: 1, Name: 't1' }]);
    // NocoDB: a missing related record → 404 ERR_RECORD_NOT_FOUND and nothing linked.
    const missing = await raw('POST', `/api/v2/tables/${items}/links/${tagsLink}/records/1`, [{ Id: 2 }, { Id: 99 }]);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await rows.nestedList(items, tagsLink, '1', {})).pageInfo.totalRows).toBe(1);
    // NocoDB v2: the links of a record that does not exist → 404 ERR_RECORD_NOT_FOUND (its v1 answers an empty page, as Tabula's does).
    const none = await raw('GET', `/api/v2/tables/${items}/links/${tagsLink}/records/99`);
    expect([none.status, none.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/${items}/99/mm/Tags`)).body.list).toEqual([]);
  });

  it('answers NocoDB\'s statuses for missing tables, records and views; limits hold as on v1', async () => {
    // NocoDB: 404 ERR_TABLE_NOT_FOUND "Table 'mmissing0000000' not found"; 404 ERR_RECORD_NOT_FOUND "Record '999' not found".
    const table = await raw('GET', '/api/v2/tables/mmissing0000000/records');
    expect([table.status, table.body.error, table.body.msg]).toEqual([404, 'ERR_TABLE_NOT_FOUND', "Table 'mmissing0000000' not found"]);
    const record = await raw('GET', `/api/v2/tables/${items}/records/999`);
    expect([record.status, record.body.error, record.body.msg]).toEqual([404, 'ERR_RECORD_NOT_FOUND', "Record '999' not found"]);
    // NocoDB: 404 ERR_VIEW_NOT_FOUND "View 'vwmissing' not found".
    const view = await raw('GET', `/api/v2/tables/${items}/records?viewId=vwmissing`);
    expect([view.status, view.body.error]).toEqual([404, 'ERR_VIEW_NOT_FOUND']);
    const over = await raw('POST', `/api/v2/tables/${items}/records`, Array.from({ length: 51 }, (_, i) => ({ Title: `x${i}` })));
    expect([over.status, over.body.error]).toEqual([422, 'ERR_MAX_PAYLOAD_LIMIT_EXCEEDED']);
  });

  it('reads through a view by viewId (its filters and sorts)', async () => {
    const views = (await raw('GET', `/api/v2/meta/tables/${items}/views`)).body.list;
    const grid = (await raw('POST', `/api/v2/meta/tables/${items}/grids`, { title: 'Big ones' })).body;
    const qty = (await raw('GET', `/api/v2/meta/tables/${items}`)).body.columns.find((c: { title: string }) => c.title === 'Qty').id;
    await raw('POST', `/api/v2/meta/views/${grid.id}/filters`, { fk_column_id: qty, comparison_op: 'gt', value: '5' });
    expect(views.map((v: { title: string }) => v.title)).toEqual(['Items']);
    const big = await api.dbDataTableRow.list(items, { viewId: grid.id });
    expect(big.list.map((r) => (r as { Id: number }).Id)).toEqual([2]);
    expect(await api.dbDataTableRow.count(items, { viewId: grid.id } as never)).toEqual({ count: 1 });
  });

  it('API tokens: a base token reads its base through v2 and sees another base as missing', async () => {
    const mine = (await raw('POST', `/api/v1/db/meta/projects/${baseId}/api-tokens`, { description: 'v2' })).body.token;
    const other = (await raw('POST', '/api/v2/meta/bases', { title: 'Other' })).body.id;
    const theirs = (await raw('POST', `/api/v1/db/meta/projects/${other}/api-tokens`, { description: 'other' })).body.token;
    expect((await raw('GET', `/api/v2/tables/${items}/records/count`, undefined, { 'xc-token': mine })).body).toEqual({ count: 2 });
    const hidden = await raw('GET', `/api/v2/tables/${items}/records/count`, undefined, { 'xc-token': theirs });
    expect([hidden.status, hidden.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
    expect((await raw('GET', `/api/v2/tables/${items}/records`, undefined, {})).status).toBe(401);
  });

  it('v2 storage: upload (with base_id) and upload-by-url, then an attachment cell written through v2', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('hello v2')], { type: 'text/plain' }), 'hello.txt');
    const res = await fetch(`${stack.url}/api/v2/storage/upload?base_id=${baseId}`, { method: 'POST', headers: { 'xc-auth': token }, body: form });
    const uploaded = await res.json() as Array<{ path: string; title: string }>;
    expect([res.status, uploaded[0].title]).toEqual([200, 'hello.txt']);
    const byUrl = await raw('POST', '/api/v2/storage/upload-by-url', [{ url: 'data:text/plain;base64,aGk=', fileName: 'hi.txt' }]);
    expect([byUrl.status, byUrl.body[0].title]).toEqual([200, 'hi.txt']);
    expect(await api.dbDataTableRow.update(items, { Id: 1, Files: [...uploaded, ...byUrl.body] })).toEqual({ Id: 1 });
    const files = (await api.dbDataTableRow.read(items, '1', { fields: 'Files' } as never) as { Files: Array<{ title: string }> }).Files;
    expect(files.map((f) => f.title)).toEqual(['hello.txt', 'hi.txt']);
  });
});

describe('nocodb-sdk aggregates and group-by', () => {
  it('dbDataTableAggregate, dbTableRow.groupBy and groupByCount', async () => {
    const made = await api.dbDataTableRow.create(tags, [{ Name: 'g1' }, { Name: 'g2' }, { Name: 'g2' }, { Name: null }]) as { Id: number }[];
    const columns = (await raw('GET', `/api/v2/meta/tables/${items}`)).body.columns as { id: string; title: string }[];
    const qty = columns.find((c) => c.title === 'Qty')!.id;
    const title = columns.find((c) => c.title === 'Title')!.id;
    const agg = (aggregation: object[], extra: Record<string, string> = {}) => api.dbDataTableAggregate.dbDataTableAggregate(items, { aggregation, ...extra } as never);
    const rows = (await api.dbDataTableRow.list(items, { fields: ['Qty'] })).list.map((r) => (r as { Qty: number | null }).Qty);
    const values = rows.filter((v): v is number => v !== null);
    // NocoDB: {"Qty":21} for sum, {"Qty":10.5} for avg, … (one key per field; unknown fields and types are left out: {}).
    expect(await agg([{ field: qty, type: 'sum' }])).toEqual({ Qty: values.reduce((a, b) => a + b, 0) });
    expect(await agg([{ field: qty, type: 'max' }, { field: title, type: 'count_filled' }])).toEqual({ Qty: Math.max(...values), Title: rows.length });
    expect(await agg([{ field: qty, type: 'count_empty' }])).toEqual({ Qty: rows.length - values.length });
    expect(await agg([{ field: qty, type: 'count' }], { where: '(Qty,gt,1)' })).toEqual({ Qty: values.filter((v) => v > 1).length });
    expect(await agg([{ field: 'cmissing', type: 'sum' }, { field: qty, type: 'nope' }])).toEqual({});
    // NocoDB: {"list":[{"count":2,"Name":"g2"},…],"pageInfo":{…}}; groupby/count → a bare number.
    const grouped = await api.dbTableRow.groupBy('noco', baseId, 'Tags', { column_name: 'Name', where: '(Name,like,g%)' });
    expect(grouped.list).toEqual([{ count: 1, Name: 'g1' }, { count: 2, Name: 'g2' }]);
    expect(grouped.pageInfo).toMatchObject({ totalRows: 2, page: 1 });
    expect((await api.dbTableRow.groupBy('noco', baseId, 'Tags', { column_name: 'Name', sort: ['-Name'], limit: 1, where: '(Name,like,g%)' })).list).toEqual([{ count: 2, Name: 'g2' }]);
    expect(await api.dbTableRow.groupByCount('noco', baseId, 'Tags', { column_name: 'Name', where: '(Name,like,g%)' })).toBe(2);
    const none = await raw('GET', `/api/v1/db/data/noco/${baseId}/Tags/groupby`);
    expect([none.status, none.body.error]).toEqual([404, 'ERR_FIELD_NOT_FOUND']);
    expect(made).toHaveLength(4);
  });
});

describe('nocodb-sdk: bulk reads, move, a link cell\'s copy/paste/deleteAll, button trigger', () => {
  it('dbDataTableBulkList, dbDataTableBulkGroupList and dbDataTableBulkAggregate answer per alias what list, groupBy and aggregate answer', async () => {
    const qty = ((await raw('GET', `/api/v2/meta/tables/${items}`)).body.columns as { id: string; title: string }[]).find((c) => c.title === 'Qty')!.id;
    // NocoDB: {"big":{"list":[…],"pageInfo":{…}},"first":{…}}: each alias answers its list.
    // The first record's attachments carry signed links whose expiry counts whole seconds from the read: its
    // list is read just before and just after the bulk read, and the bulk answer equals one of the two.
    const firstBefore = await api.dbDataTableRow.list(items, { limit: 1 });
    const lists = await api.dbDataTableBulkList.dbDataTableBulkList(items, {} as never, [
      { alias: 'big', where: '(Qty,gt,1)', sort: '-Qty', fields: 'Title,Qty' }, { alias: 'first', limit: 1 },
    ]) as Record<string, unknown>;
    const firstAfter = await api.dbDataTableRow.list(items, { limit: 1 });
    expect(Object.keys(lists).sort()).toEqual(['big', 'first']);
    expect(lists.big).toEqual(await api.dbDataTableRow.list(items, { where: '(Qty,gt,1)', sort: '-Qty', fields: ['Title', 'Qty'] }));
    expect([firstBefore, firstAfter]).toContainEqual(lists.first);
    // NocoDB: 201 (its POSTs declare no 200); an empty body is 400 "Invalid bulkFilterList".
    expect((await raw('POST', `/api/v2/tables/${items}/bulk/dataList`, [{ alias: 'x', limit: 1 }])).status).toBe(201);
    const empty = await raw('POST', `/api/v2/tables/${items}/bulk/dataList`, []);
    expect([empty.status, empty.body.msg]).toEqual([400, 'Invalid bulkFilterList']);
    const groups = await api.dbDataTableBulkGroupList.dbDataTableBulkGroupList(tags, {} as never, [{ alias: 'g', column_name: 'Name', where: '(Name,like,g%)' }]) as Record<string, unknown>;
    expect(groups).toEqual({ g: await api.dbTableRow.groupBy('noco', baseId, 'Tags', { column_name: 'Name', where: '(Name,like,g%)' }) });
    // NocoDB: {"all":{"Qty":…},"big":{"Qty":…}}: the query's aggregations under each alias's filter.
    const aggregation = [{ field: qty, type: 'sum' }];
    const sums = await api.dbDataTableBulkAggregate.dbDataTableBulkAggregate(items, { aggregation } as never, [{ alias: 'all' }, { alias: 'big', where: '(Qty,gt,1)' }]);
    expect(sums).toEqual({
      all: await api.dbDataTableAggregate.dbDataTableAggregate(items, { aggregation } as never),
      big: await api.dbDataTableAggregate.dbDataTableAggregate(items, { aggregation, where: '(Qty,gt,1)' } as never),
    });
  });

  it('dbDataTableRow.move: before a record, or last; a missing record is 404 and nothing moves', async () => {
    const moves = (await raw('POST', `/api/v2/meta/bases/${baseId}/tables`, { title: 'Moves', columns: [{ column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true }, { column_name: 'title', title: 'Title', uidt: 'SingleLineText' }] })).body.id as string;
    await api.dbDataTableRow.create(moves, [{ Title: 'm1' }, { Title: 'm2' }, { Title: 'm3' }]);
    const order = async () => (await api.dbDataTableRow.list(moves, {})).list.map((r) => (r as { Title: string }).Title);
    // NocoDB: 200 true.
    expect(await api.dbDataTableRow.move(moves, '3', { before: '1' })).toBe(true);
    expect(await order()).toEqual(['m3', 'm1', 'm2']);
    expect(await api.dbDataTableRow.move(moves, '1', { before: '2' })).toBe(true);
    expect(await order()).toEqual(['m3', 'm1', 'm2']);
    expect(await api.dbDataTableRow.move(moves, '3')).toBe(true);
    expect(await order()).toEqual(['m1', 'm2', 'm3']);
    expect(await raw('POST', `/api/v2/tables/${moves}/records/1/move`)).toEqual({ status: 201, body: true });
    expect(await order()).toEqual(['m2', 'm3', 'm1']);
    const missing = await raw('POST', `/api/v2/tables/${moves}/records/1/move?before=99`);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect(await order()).toEqual(['m2', 'm3', 'm1']);
  });

  it('nestedListCopyPasteOrDeleteAll: paste makes a row\'s links another\'s; deleteAll clears them', async () => {
    const rows = api.dbDataTableRow;
    const linked = async (id: string) => (await rows.nestedList(items, tagsLink, id, {})).list.map((r) => (r as { Id: number }).Id);
    await rows.nestedLink(items, tagsLink, '1', [{ Id: 2 }]);
    expect([await linked('1'), await linked('2')]).toEqual([[1, 2], [2]]);
    const op = (operation: string, rowId: string) => ({ operation, rowId, columnId: tagsLink, fk_related_model_id: tags });
    // NocoDB: {"link":[{"Id":1}],"unlink":[]}; then deleteAll → {"link":[],"unlink":[{"Id":1},{"Id":2}]}.
    expect(await rows.nestedListCopyPasteOrDeleteAll(items, tagsLink, [op('copy', '1'), op('paste', '2')] as never)).toEqual({ link: [{ Id: 1 }], unlink: [] });
    expect(await linked('2')).toEqual([1, 2]);
    await rows.nestedUnlink(items, tagsLink, '1', [{ Id: 1 }]);
    expect(await rows.nestedListCopyPasteOrDeleteAll(items, tagsLink, [op('copy', '1'), op('paste', '2')] as never)).toEqual({ link: [], unlink: [{ Id: 1 }] });
    expect(await linked('2')).toEqual([2]);
    expect(await rows.nestedListCopyPasteOrDeleteAll(items, tagsLink, [op('deleteAll', '1')] as never)).toEqual({ link: [], unlink: [{ Id: 2 }] });
    expect(await linked('1')).toEqual([]);
    const missing = await raw('POST', `/api/v2/tables/${items}/links/${tagsLink}/records`, [op('deleteAll', '99')]);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    const bad = await raw('POST', `/api/v2/tables/${items}/links/${tagsLink}/records`, [{ operation: 'copy', rowId: '1' }]);
    expect(bad.status).toBe(400);
  });

  it('action.triggerButton: not served, as NocoDB 0.301.3 serves it not (404)', async () => {
    const qty = ((await raw('GET', `/api/v2/meta/tables/${items}`)).body.columns as { id: string; title: string }[]).find((c) => c.title === 'Qty')!.id;
    // NocoDB 0.301.3: 404 {"msg":"Cannot POST /api/v2/tables/…/button/…"} (its open edition registers no button route).
    await expect(api.action.triggerButton(items, qty, { rowIds: ['1'] })).rejects.toMatchObject({ response: { status: 404 } });
  });
});

describe('v2 meta calls of n8n\'s pickers', () => {
  it('bases, a base\'s tables, a table, its views', async () => {
    const bases = (await raw('GET', '/api/v2/meta/bases/')).body;
    expect(bases.list.map((b: { title: string }) => b.title)).toEqual(expect.arrayContaining(['V2 base']));
    expect(bases.pageInfo).toMatchObject({ page: 1, isFirstPage: true });
    const tables = (await raw('GET', `/api/v2/meta/bases/${baseId}/tables`)).body.list;
    expect(tables.map((t: { title: string }) => t.title)).toEqual(['Items', 'Tags', 'Moves']);
    const table = (await raw('GET', `/api/v2/meta/tables/${items}`)).body;
    expect(table).toMatchObject({ id: items, title: 'Items', base_id: baseId });
    expect(table.columns.map((c: { title: string }) => c.title)).toEqual(expect.arrayContaining(['Id', 'Title', 'Qty', 'Tags']));
    expect((await raw('GET', `/api/v2/meta/tables/${items}/views`)).body.list.map((v: { title: string }) => v.title)).toEqual(['Items', 'Big ones']);
  });
});
