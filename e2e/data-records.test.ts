import { Api } from 'nocodb-sdk';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

let stack: TestStack;
let api: Api<unknown>;
let token: string;
let baseId: string;
const TABLE = 'Items';

/** A raw call through the gateway (for status codes and bodies the SDK hides). */
async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack.url}${path}`, {
    method, headers: { 'content-type': 'application/json', 'xc-auth': token }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  stack = await startTestStack(allServices, { SVC_BULK_MAX_RECORDS: '50' });
  token = (await new TestApi(stack.url).signUp('e2e', 'data-e2e@example.com')).token;
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
  const base = await api.base.create({ title: 'DataBase' });
  baseId = base.id as string;
  await api.dbTable.create(baseId, {
    title: TABLE, table_name: 'items',
    columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'name', title: 'Name', uidt: 'SingleLineText', rqd: true },
      { column_name: 'qty', title: 'Qty', uidt: 'Number' },
      { column_name: 'done', title: 'Done', uidt: 'Checkbox' },
    ],
  } as never);
});
afterAll(async () => { await stack?.stop(); });

describe('records through nocodb-sdk', () => {
  it('CRUD, find-one, count and the view list', async () => {
    const created = (await api.dbTableRow.create('noco', baseId, TABLE, { Name: 'one', Qty: 1 })) as Record<string, unknown>;
    expect(created).toMatchObject({ Id: 1, Name: 'one', Qty: 1, Done: false });
    expect(created.CreatedAt).toMatch(/\+00:00$/);
    expect(await api.dbTableRow.read('noco', baseId, TABLE, 1)).toMatchObject({ Name: 'one' });
    expect(await api.dbTableRow.update('noco', baseId, TABLE, 1, { Qty: 5 })).toMatchObject({ Qty: 5 });
    const list = await api.dbTableRow.list('noco', baseId, TABLE, { where: '(Qty,gt,1)' });
    expect(list.list).toHaveLength(1);
    expect(list.pageInfo).toMatchObject({ totalRows: 1, page: 1, isFirstPage: true, isLastPage: true });
    expect(await api.dbTableRow.findOne('noco', baseId, TABLE, { where: '(Name,eq,one)' })).toMatchObject({ Id: 1 });
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/${TABLE}/count`)).body).toEqual({ count: 1 });
    const views = await api.dbView.list((await api.dbTable.list(baseId)).list[0].id as string);
    const viewList = await api.dbViewRow.list('noco', baseId, TABLE, views.list[0].id as string, {});
    expect(viewList.list).toHaveLength(1);
    expect(await api.dbTableRow.delete('noco', baseId, TABLE, 1)).toBe(1);
    const missing = await raw('DELETE', `/api/v1/db/data/noco/${baseId}/${TABLE}/1`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'ERR_RECORD_NOT_FOUND' });
  });

  it('bulk create, update, update-all, delete and delete-all', async () => {
    const rows = await api.dbTableRow.bulkCreate('noco', baseId, TABLE, [{ Name: 'a', Qty: 1 }, { Name: 'b', Qty: 2 }, { Name: 'c', Qty: 3 }]);
    expect(rows).toHaveLength(3);
    const ids = (rows as unknown as { Id: number }[]).map((r) => r.Id);
    await api.dbTableRow.bulkUpdate('noco', baseId, TABLE, [{ Id: ids[0], Qty: 10 }]);
    expect(await api.dbTableRow.read('noco', baseId, TABLE, ids[0])).toMatchObject({ Qty: 10 });
    expect(await api.dbTableRow.bulkUpdateAll('noco', baseId, TABLE, { Done: true }, { where: '(Qty,gte,3)' })).toBe(2);
    await api.dbTableRow.bulkDelete('noco', baseId, TABLE, [{ Id: ids[1] }]);
    expect(await api.dbTableRow.bulkDeleteAll('noco', baseId, TABLE, { where: '(Done,checked)' })).toBe(2);
    expect((await api.dbTableRow.list('noco', baseId, TABLE)).list).toHaveLength(0);
  });

  it('answers bad input with 4xx and never writes part of a bulk', async () => {
    const T = `/api/v1/db/data/noco/${baseId}/${TABLE}`;
    const B = `/api/v1/db/data/bulk/noco/${baseId}/${TABLE}`;
    for (const q of ["where=(Name,eq,x' or '1'='1)", 'sort=-id,(select 1)', 'fields=1;drop table', 'where=((Name,eq,a)',
      `where=${'('.repeat(1000)}(Name,eq,a)${')'.repeat(1000)}`, `where=(Qty,in,${Array.from({ length: 10000 }, (_, i) => i).join(',')})`,
      'limit=-1', 'limit=abc', 'limit=1e9', 'limit=1.5', 'offset=999999']) {
      const res = await raw('GET', `${T}?${q}`);
      expect([q, res.status < 500 && res.status >= 200]).toEqual([q, true]);
    }
    expect((await raw('GET', `${T}/1;drop table`)).status).toBe(404);
    expect((await raw('GET', `/api/v1/db/data/noco/pnotmybase000000/${TABLE}/1`)).status).toBe(404);
    expect((await raw('GET', `/api/v1/db/data/noco/${baseId}/items;drop table/1`)).status).toBe(404);
    expect((await raw('POST', T, { Qty: 1 })).body).toMatchObject({ error: 'ERR_REQUIRED_FIELD_MISSING' });
    expect((await raw('POST', T, { Name: 'x', Qty: 'many' })).body).toMatchObject({ error: 'ERR_INVALID_VALUE_FOR_FIELD' });
    expect((await raw('POST', T, { Name: 'x', CreatedAt: '2020-01-01' })).status).toBe(400);
    const bad = await raw('POST', B, [{ Name: 'fine' }, { Name: 'bad', Qty: 'x' }]);
    expect([bad.status, bad.body.details?.index]).toEqual([400, 1]);
    const over = await raw('POST', B, Array.from({ length: 51 }, (_, i) => ({ Name: `n${i}` })));
    expect(over.body).toMatchObject({ error: 'ERR_MAX_PAYLOAD_LIMIT_EXCEEDED', message: 'Maximum 50 entities are allowed per request' });
    expect((await raw('PATCH', `${B}/all`, { Qty: 0 })).status).toBe(400);
    expect((await raw('DELETE', `${B}/all`)).status).toBe(400);
    expect((await raw('GET', `${T}/count`)).body).toEqual({ count: 0 });
  });

  it('sees a new column once the meta service announces it', async () => {
    const table = (await api.dbTable.list(baseId)).list.find((t) => t.title === TABLE);
    await raw('GET', `/api/v1/db/data/noco/${baseId}/${TABLE}`);
    await api.dbTableColumn.create(table?.id as string, { title: 'Note', column_name: 'note', uidt: 'SingleLineText' } as never);
    let record: Record<string, unknown> = {};
    for (let i = 0; i < 50 && record.Note !== 'hello'; i++) {
      record = (await raw('POST', `/api/v1/db/data/noco/${baseId}/${TABLE}`, { Name: 'n', Note: 'hello' })).body;
      if (record.Note !== 'hello') await new Promise((r) => setTimeout(r, 20));
    }
    expect(record.Note).toBe('hello');
  });
});
