import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/**
 * NocoDB's filter operators through the API: `where`, and view filters with
 * `comparison_sub_op`. The expected ids are NocoDB 0.301.3's answers to the
 * same requests on the same rows (scripts/compat/depth-compare.ts). Dates are
 * relative to today (UTC): a run that crosses midnight is repeated with the
 * rows moved to the new day, so no case depends on the time it runs at.
 */
let stack: TestStack;
let token: string;
let table: string;

async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await new TestApi(stack.url).call(method, path, { body, headers: { 'xc-auth': token } });
  return { status: res.status, body: res.body };
}

const today = () => new Date().toISOString().slice(0, 10);
const day = (base: string, offset: number) => new Date(Date.parse(`${base}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

/** [Title, Kind, Tags, Done, days from today] of rows 1…8. */
const ROWS: [string | null, string | null, string | null, boolean, number | null][] = [
  ['Apple pie', 'x', 'a,b', true, 0], ['banana_split', 'y', 'b', false, -1], ['Cherry', 'z', 'c,a', false, 1], ['', null, null, false, null],
  [null, 'x', 'b,c', false, -3], ['100% juice', 'y', 'a', true, -7], ['far', 'z', 'a,b,c', false, -30], ['later', 'x', 'c', true, 10],
];

const WHERE: [string, number[]][] = [
  ['(Title,blank)', [4, 5]], ['(Title,notblank)', [1, 2, 3, 6, 7, 8]],
  ['(Title,empty)', [4]], ['(Title,notempty)', [1, 2, 3, 5, 6, 7, 8]], ['(Title,null)', [5]], ['(Title,notnull)', [1, 2, 3, 4, 6, 7, 8]],
  ['(Tags,anyof,a,c)', [1, 3, 5, 6, 7, 8]], ['(Tags,allof,a,b)', [1, 7]], ['(Tags,nanyof,a)', [2, 4, 5, 8]], ['(Tags,nallof,a,b)', [2, 3, 4, 5, 6, 8]],
  ['(Kind,anyof,x,y)', [1, 2, 5, 6, 8]], ['(Kind,nanyof,x)', [2, 3, 4, 6, 7]], ['(Kind,allof,x)', [1, 5, 8]],
  ['(Done,checked)', [1, 6, 8]], ['(Done,notchecked)', [2, 3, 4, 5, 7]],
  ['(When,eq,today)', [1]], ['(When,eq,yesterday)', [2]], ['(When,eq,tomorrow)', [3]], ['(When,eq,oneWeekAgo)', [6]],
  ['(When,eq,daysAgo,3)', [5]], ['(When,eq,daysFromNow,10)', [8]], ['(When,lt,today)', [2, 5, 6, 7]], ['(When,gte,daysAgo,7)', [1, 2, 3, 5, 6, 8]],
  ['(When,isWithin,pastWeek)', [1, 2, 5, 6]], ['(When,isWithin,pastMonth)', [1, 2, 5, 6, 7]], ['(When,isWithin,pastYear)', [1, 2, 5, 6, 7]],
  ['(When,isWithin,nextWeek)', [1, 3]], ['(When,isWithin,nextMonth)', [1, 3, 8]], ['(When,isWithin,nextYear)', [1, 3, 8]],
  ['(When,isWithin,pastNumberOfDays,3)', [1, 2, 5]], ['(When,isWithin,nextNumberOfDays,10)', [1, 3, 8]],
];

beforeAll(async () => {
  stack = await startTestStack(allServices);
  token = (await new TestApi(stack.url).signUp('e2e', 'filters-depth@example.com')).token;
  const base = (await raw('POST', '/api/v2/meta/bases/', { title: 'Filters' })).body.id;
  const options = (names: string[]) => ({ options: names.map((title, i) => ({ title, order: i + 1 })) });
  table = (await raw('POST', `/api/v2/meta/bases/${base}/tables`, {
    title: 'Depth', columns: [
      { column_name: 'id', title: 'Id', uidt: 'ID', pk: true, ai: true },
      { column_name: 'title', title: 'Title', uidt: 'SingleLineText' },
      { column_name: 'kind', title: 'Kind', uidt: 'SingleSelect', colOptions: options(['x', 'y', 'z']) },
      { column_name: 'tags', title: 'Tags', uidt: 'MultiSelect', colOptions: options(['a', 'b', 'c']) },
      { column_name: 'done', title: 'Done', uidt: 'Checkbox' },
      { column_name: 'when', title: 'When', uidt: 'Date' },
    ],
  })).body.id;
  const rows = ROWS.map(([Title, Kind, Tags, Done]) => ({ Title, Kind, Tags, Done }));
  expect((await raw('POST', `/api/v2/tables/${table}/records`, rows)).status).toBe(200);
}, 120_000);
afterAll(async () => { await stack?.stop(); });

/** Dates placed relative to today, then `read`; repeated once when the day changed meanwhile. */
async function onOneDay<T>(read: () => Promise<T>): Promise<T> {
  for (;;) {
    const start = today();
    const updates = ROWS.map(([, , , , offset], i) => ({ Id: i + 1, When: offset === null ? null : day(start, offset) }));
    expect((await raw('PATCH', `/api/v2/tables/${table}/records`, updates)).status).toBe(200);
    const result = await read();
    if (today() === start) return result;
  }
}

const ids = async (query: string) => {
  const res = await raw('GET', `/api/v2/tables/${table}/records?fields=Id&sort=Id&limit=100&${query}`);
  expect(res.status).toBe(200);
  return res.body.list.map((r: { Id: number }) => r.Id);
};

describe('NocoDB filter operators', () => {
  it('where: blank/empty/null, anyof…nallof on MultiSelect and SingleSelect, checked, date sub-operators', async () => {
    const got = await onOneDay(async () => {
      const out: [string, number[]][] = [];
      for (const [where] of WHERE) out.push([where, await ids(`where=${encodeURIComponent(where)}`)]);
      return out;
    });
    expect(got).toEqual(WHERE);
  });

  it('view filters with comparison_sub_op', async () => {
    const grid = (await raw('POST', `/api/v2/meta/tables/${table}/grids`, { title: 'Recent' })).body;
    const columns = (await raw('GET', `/api/v2/meta/tables/${table}`)).body.columns as { id: string; title: string }[];
    const id = (title: string) => columns.find((c) => c.title === title)!.id;
    const within = await raw('POST', `/api/v2/meta/views/${grid.id}/filters`, { fk_column_id: id('When'), comparison_op: 'isWithin', comparison_sub_op: 'pastNumberOfDays', value: 3 });
    expect(within.status).toBe(200);
    expect(await onOneDay(() => ids(`viewId=${grid.id}`))).toEqual([1, 2, 5]);
    await raw('POST', `/api/v2/meta/views/${grid.id}/filters`, { fk_column_id: id('Title'), comparison_op: 'notempty' });
    // Row 5's Title is NULL: not empty (NocoDB), so it stays.
    expect(await onOneDay(() => ids(`viewId=${grid.id}`))).toEqual([1, 2, 5]);
    const exact = (await raw('POST', `/api/v2/meta/tables/${table}/grids`, { title: 'Exact' })).body;
    await raw('POST', `/api/v2/meta/views/${exact.id}/filters`, { fk_column_id: id('When'), comparison_op: 'eq', comparison_sub_op: 'daysAgo', value: 1 });
    expect(await onOneDay(() => ids(`viewId=${exact.id}`))).toEqual([2]);
  });
});
