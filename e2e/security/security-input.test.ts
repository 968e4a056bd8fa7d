import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/** Issue 17 defects 8, 9 and 10: input that used to be a 500 (or to break a view for good). */
let s: SecurityStack;
let owner: TestUser;
let baseId: string;
let tableId: string;
let viewId: string;
let nameColumn: string;

beforeAll(async () => {
  s = await startSecurityStack();
  owner = await s.signUp('input');
  baseId = await s.createBase(owner, `Input${Date.now()}`);
  tableId = await s.createTable(owner, baseId, 'Items');
  const table = await s.call('GET', `/api/v1/db/meta/tables/${tableId}`, { token: owner.token });
  nameColumn = table.body.columns.find((c: { title: string }) => c.title === 'Name').id;
  viewId = (await s.call('GET', `/api/v1/db/meta/tables/${tableId}/views`, { token: owner.token })).body.list[0].id;
});
afterAll(async () => { await s?.stop(); });

/** A filter nested `depth` groups deep, as JSON text (JSON.stringify itself overflows at a few thousand levels). */
function nested(depth: number): string {
  const leaf = JSON.stringify({ fk_column_id: nameColumn, comparison_op: 'eq', value: 'x' });
  return '{"is_group":true,"logical_op":"and","children":['.repeat(depth) + leaf + ']}'.repeat(depth);
}

describe('security: bad input', () => {
  it('defect 8: a NUL byte in record values, where values, titles, meta and defaults is 400 naming the field', async () => {
    const token = owner.token;
    const record = await s.call('POST', `/api/v1/db/data/noco/${baseId}/Items`, { token, body: { Name: 'a\u0000b' } });
    expect([record.status, record.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    expect(record.body.message).toContain("'Name'");
    const bulk = await s.call('POST', `/api/v1/db/data/bulk/noco/${baseId}/Items`, { token, body: [{ Name: 'ok' }, { Name: 'bad\u0000' }] });
    expect([bulk.status, bulk.body.message]).toEqual([400, expect.stringContaining("'[1].Name'")]);
    const where = await s.call('GET', `/api/v1/db/data/noco/${baseId}/Items?where=(Name,eq,a%00b)`, { token });
    expect([where.status, where.body.message]).toEqual([400, expect.stringContaining("'where'")]);
    const title = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, { token, body: { title: 'T\u0000', columns: [] } });
    expect([title.status, title.body.message]).toEqual([400, expect.stringContaining("'title'")]);
    const meta = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token, body: { title: 'M', uidt: 'SingleLineText', meta: { note: '\u0000' } } });
    expect([meta.status, meta.body.message]).toEqual([400, expect.stringContaining("'meta.note'")]);
    const cdf = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token, body: { title: 'D', uidt: 'SingleLineText', cdf: 'x\u0000' } });
    expect([cdf.status, cdf.body.message]).toEqual([400, expect.stringContaining("'cdf'")]);
    const count = await s.call('GET', `/api/v1/db/data/noco/${baseId}/Items/count`, { token });
    expect(count.body).toEqual({ count: 0 });
  });

  it('defect 9: PostgreSQL, MySQL and SQLite system column names are refused with 400', async () => {
    for (const name of ['ctid', 'xmin', 'xmax', 'tableoid', 'cmin', 'cmax', 'XMIN', 'oid', '_rowid', 'rowid', '_rowid_']) {
      const res = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token: owner.token, body: { title: `c_${name}`, column_name: name, uidt: 'SingleLineText' } });
      expect([name, res.status]).toEqual([name, 400]);
    }
    const byTitle = await s.call('POST', `/api/v1/db/meta/tables/${tableId}/columns`, { token: owner.token, body: { title: 'xmin', uidt: 'SingleLineText' } });
    expect(byTitle.status).toBe(200);
    const created = await s.call('POST', `/api/v1/db/meta/projects/${baseId}/tables`, {
      token: owner.token, body: { title: 'Sys', table_name: 'sys', columns: [{ column_name: 'ctid', title: 'ctid', uidt: 'SingleLineText' }] },
    });
    expect(created.status).toBe(400);
    expect((await s.call('GET', `/api/v1/db/data/noco/${baseId}/Items`, { token: owner.token })).status).toBe(200);
  });

  it('defect 10: filter trees are depth- and size-checked when saved (100 and 3000 deep refused; the view keeps answering)', async () => {
    const post = (body: unknown) => s.call('POST', `/api/v1/db/meta/views/${viewId}/filters`, {
      token: owner.token, ...(typeof body === 'string' ? { raw: body } : { body }),
    });
    const deep = await post(nested(100));
    expect([deep.status, deep.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    const deeper = await post(nested(3000));
    expect(deeper.status).toBe(400);
    const wide = await post({ is_group: true, logical_op: 'or', children: Array.from({ length: 1500 }, () => ({ fk_column_id: nameColumn, comparison_op: 'eq', value: 'x' })) });
    expect(wide.status).toBe(400);
    expect((await post(nested(5))).status).toBe(200);
    // Nesting one request at a time is bounded too.
    let parent = (await post({ is_group: true, logical_op: 'and' })).body.id as string;
    let last = 200;
    for (let level = 2; level <= 52 && last === 200; level += 1) {
      const res = await post({ is_group: true, logical_op: 'and', fk_parent_id: parent });
      last = res.status;
      if (res.status === 200) parent = res.body.id;
    }
    expect(last).toBe(400);
    const view = await s.call('GET', `/api/v1/db/data/noco/${baseId}/Items/views/${viewId}`, { token: owner.token });
    expect(view.status).toBe(200);
  });
});
