import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * NocoDB's view kinds through the v1 meta paths nocodb-sdk's `dbView.*Create`,
 * `dbView.*Read/*Update`, `dbViewColumn.*`, `showAllColumn`/`hideAllColumn`
 * and `gridColumnsList`/`gridColumnUpdate` call: numeric types, each kind's
 * settings and defaults (NocoDB 0.301.3's answers to the same requests), a
 * view's columns, and records read through a view leaving its hidden columns
 * out as soon as a column is hidden.
 */
const M = '/api/v1/db/meta';
let stack: TestStack;
let api: TestApi;
let token: string;
let other: string;
let table: { id: string; base_id: string; columns: { id: string; title: string; system?: boolean }[]; views: { id: string; type: number }[] };

async function call(method: string, path: string, body?: unknown, as = token): Promise<{ status: number; body: any }> {
  const res = await api.call(method, path, { body, headers: { 'xc-auth': as } });
  return { status: res.status, body: res.body };
}
const col = (title: string) => table.columns.find((c) => c.title === title)!.id;

beforeAll(async () => {
  stack = await startTestStack(allServices);
  api = new TestApi(stack.url);
  token = (await api.signUp('views', 'view-kinds@example.com')).token;
  other = (await api.signUp('other', 'view-kinds-other@example.com')).token;
  const base = (await call('POST', `${M}/projects`, { title: 'Views' })).body.id;
  table = (await call('POST', `${M}/projects/${base}/tables`, {
    title: 'Cards', table_name: 'cards', columns: [
      { column_name: 'title', title: 'Title', uidt: 'SingleLineText' }, { column_name: 'a', title: 'A', uidt: 'Number' },
      { column_name: 'b', title: 'B', uidt: 'Email' }, { column_name: 'st', title: 'St', uidt: 'SingleSelect', dtxp: "'x','y'" },
      { column_name: 'd', title: 'D', uidt: 'Date' }, { column_name: 'f', title: 'F', uidt: 'Attachment' },
    ],
  })).body;
  await call('POST', `/api/v1/db/data/noco/${base}/${table.id}`, { Title: 'one', A: 1, B: 'a@example.com', St: 'x' });
}, 120_000);
afterAll(async () => { await stack?.stop(); });

describe('view kinds', () => {
  it("every view object carries NocoDB's numeric type; the default grid is 3", async () => {
    expect(table.views.map((v) => v.type)).toEqual([3]);
    const list = await call('GET', `${M}/tables/${table.id}/views`);
    expect(list.body.list.map((v: { type: number }) => v.type)).toEqual([3]);
  });

  it('creates a form, gallery, kanban and calendar with the defaults NocoDB picks', async () => {
    const form = await call('POST', `${M}/tables/${table.id}/forms`, { title: 'Sign up' });
    const gallery = await call('POST', `${M}/tables/${table.id}/galleries`, { title: 'Gallery' });
    const kanban = await call('POST', `${M}/tables/${table.id}/kanbans`, { title: 'Board' });
    const calendar = await call('POST', `${M}/tables/${table.id}/calendars`, { title: 'Dates' });
    expect([form, gallery, kanban, calendar].map((r) => [r.status, r.body.type])).toEqual([[200, 1], [200, 2], [200, 4], [200, 6]]);
    expect(form.body.view).toMatchObject({ fk_view_id: form.body.id, heading: 'Sign up' });
    expect(gallery.body.view).toMatchObject({ fk_cover_image_col_id: col('F') });
    expect(kanban.body.view).toMatchObject({ fk_grp_col_id: col('St'), fk_cover_image_col_id: col('F') });
    expect(calendar.body.view).toMatchObject({ calendar_range: [{ fk_from_column_id: col('D') }] });
    const types = (await call('GET', `${M}/tables/${table.id}/views`)).body.list.map((v: { title: string; type: number }) => [v.title, v.type]);
    expect(types).toEqual([['Cards', 3], ['Sign up', 1], ['Gallery', 2], ['Board', 4], ['Dates', 6]]);
    expect((await call('POST', `${M}/tables/${table.id}/galleries`, { title: 'gallery' })).status).toBe(400);
  });

  it("a kind's settings are read and updated on its own path; another kind's path answers 404", async () => {
    const views = (await call('GET', `${M}/tables/${table.id}/views`)).body.list as { id: string; type: number }[];
    const form = views.find((v) => v.type === 1)!;
    const grid = views.find((v) => v.type === 3)!;
    const updated = await call('PATCH', `${M}/forms/${form.id}`, { heading: 'Hello', submit_another_form: true });
    expect(updated.status).toBe(200);
    expect(updated.body.view).toMatchObject({ heading: 'Hello', submit_another_form: true });
    const read = await call('GET', `${M}/forms/${form.id}`);
    expect(read.body).toMatchObject({ fk_view_id: form.id, heading: 'Hello', submit_another_form: true });
    expect(read.body.columns.map((c: { fk_column_id: string }) => c.fk_column_id)[0]).toBe(col('Title'));
    expect((await call('GET', `${M}/forms/${grid.id}`)).status).toBe(404);
    expect((await call('PATCH', `${M}/grids/${grid.id}`, { row_height: 2 })).body.view).toMatchObject({ row_height: 2 });
    expect((await call('PATCH', `${M}/grids/${grid.id}`, { row_height: 9 })).status).toBe(400);
  });

  it('refuses a setting that names a column of the wrong type or of no column of the table (NocoDB stores any id)', async () => {
    const kanban = (await call('GET', `${M}/tables/${table.id}/views`)).body.list.find((v: { type: number }) => v.type === 4);
    const wrong = await call('PATCH', `${M}/kanbans/${kanban.id}`, { fk_grp_col_id: col('A') });
    expect([wrong.status, wrong.body.msg]).toEqual([400, "fk_grp_col_id: column 'A' is a Number, not a SingleSelect"]);
    expect((await call('PATCH', `${M}/kanbans/${kanban.id}`, { fk_grp_col_id: 'cnotacolumn0000' })).status).toBe(400);
    expect((await call('POST', `${M}/tables/${table.id}/calendars`, { title: 'Bad', calendar_range: [{ fk_from_column_id: col('B') }] })).status).toBe(400);
    expect((await call('GET', `${M}/tables/${table.id}/views`)).body.list.map((v: { title: string }) => v.title)).not.toContain('Bad');
  });

  it("a new card view shows the display value and the next two columns; a form every field, the display value first", async () => {
    const views = (await call('GET', `${M}/tables/${table.id}/views`)).body.list as { id: string; type: number }[];
    const shown = async (id: string) => (await call('GET', `${M}/views/${id}/columns`)).body.list
      .filter((c: { show: boolean }) => c.show).map((c: { fk_column_id: string }) => table.columns.find((t) => t.id === c.fk_column_id)!.title);
    expect(await shown(views.find((v) => v.type === 4)!.id)).toEqual(['Title', 'A', 'B']);
    expect(await shown(views.find((v) => v.type === 1)!.id)).toEqual(['Title', 'A', 'B', 'St', 'D', 'F']);
  });
});

describe("a view's columns", () => {
  it('hiding a column through dbViewColumn.update leaves it out of records read through the view; show-all brings it back', async () => {
    const view = (await call('POST', `${M}/tables/${table.id}/grids`, { title: 'Narrow' })).body;
    const read = async () => Object.keys((await call('GET', `/api/v1/db/data/noco/${table.base_id}/${table.id}/views/${view.id}`)).body.list[0]);
    expect(await read()).toEqual(expect.arrayContaining(['Title', 'A', 'B']));
    const columns = (await call('GET', `${M}/views/${view.id}/columns`)).body.list as { id: string; fk_column_id: string; width: string }[];
    const a = columns.find((c) => c.fk_column_id === col('A'))!;
    expect(a.width).toBe('200px');
    const hidden = await call('PATCH', `${M}/views/${view.id}/columns/${a.id}`, { show: false });
    expect([hidden.status, hidden.body.show]).toEqual([200, false]);
    let keys = await read();
    for (let i = 0; i < 50 && keys.includes('A'); i += 1) { await new Promise((r) => setTimeout(r, 100)); keys = await read(); }
    expect(keys).not.toContain('A');
    expect(keys).toContain('B');
    expect((await call('POST', `${M}/views/${view.id}/hide-all?ignoreIds=${col('Title')}`)).body).toBe(true);
    const after = (await call('GET', `${M}/views/${view.id}/columns`)).body.list as { fk_column_id: string; show: boolean }[];
    expect(after.filter((c) => c.show).map((c) => c.fk_column_id)).toEqual([col('Title')]);
    expect((await call('POST', `${M}/views/${view.id}/show-all`)).body).toBe(true);
    keys = await read();
    for (let i = 0; i < 50 && !keys.includes('A'); i += 1) { await new Promise((r) => setTimeout(r, 100)); keys = await read(); }
    expect(keys).toEqual(expect.arrayContaining(['Title', 'A', 'B', 'St', 'D', 'F']));
  });

  it('grid columns carry their width; gridColumnUpdate sets it; form columns take a label and required', async () => {
    const grid = table.views[0].id;
    const columns = (await call('GET', `${M}/grids/${grid}/grid-columns`)).body as { id: string; fk_column_id: string }[];
    expect(Array.isArray(columns)).toBe(true);
    const b = columns.find((c) => c.fk_column_id === col('B'))!;
    expect((await call('PATCH', `${M}/grid-columns/${b.id}`, { width: '300px' })).body).toMatchObject({ id: b.id, width: '300px' });
    expect((await call('GET', `${M}/grids/${grid}/grid-columns`)).body.find((c: { id: string }) => c.id === b.id).width).toBe('300px');
    expect((await call('PATCH', `${M}/grid-columns/${b.id}`, { width: 'wide' })).status).toBe(400);
    const form = (await call('GET', `${M}/tables/${table.id}/views`)).body.list.find((v: { type: number }) => v.type === 1);
    const field = (await call('GET', `${M}/views/${form.id}/columns`)).body.list[0];
    expect((await call('PATCH', `${M}/form-columns/${field.id}`, { label: 'Your name', required: true })).body).toMatchObject({ label: 'Your name', required: true });
    expect((await call('GET', `${M}/forms/${form.id}`)).body.columns[0]).toMatchObject({ id: field.id, label: 'Your name', required: true });
  });

  it("another tenant's view, view column or grid column answers 404 like a missing one", async () => {
    const grid = table.views[0].id;
    const column = (await call('GET', `${M}/grids/${grid}/grid-columns`)).body[0].id;
    for (const [method, path, body] of [
      ['GET', `${M}/views/${grid}/columns`], ['PATCH', `${M}/grid-columns/${column}`, { width: '10px' }],
      ['POST', `${M}/views/${grid}/hide-all`], ['GET', `${M}/grids/${grid}/grid-columns`],
    ] as [string, string, unknown?][]) {
      const theirs = await call(method, path, body, other);
      const missing = await call(method, path.replace(grid, 'vwmissing000000').replace(column, 'ncmissing000000'), body, other);
      expect({ path, status: theirs.status, body: theirs.body.error }).toEqual({ path, status: 404, body: missing.body.error });
    }
  });
});
