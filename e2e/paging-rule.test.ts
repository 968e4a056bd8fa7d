import { startTestStack, type TestStack } from '@tabula/testing';
import { pageInfo, resolvePaging, type PagingDefaults } from '@tabula/contracts';
import { allServices } from '../scripts/services';
import { Sink, call, setupTable } from './hooks-e2e.helpers';

/**
 * One paging rule for every list (libs/contracts common/paging.ts): the same
 * odd paging inputs give the same answers in every service — never a 400, the
 * same page size and page — only each list's default page size differs.
 */
let stack: TestStack;
let t: Awaited<ReturnType<typeof setupTable>>;
let hookId: string;
const sink = new Sink();

const api = (method: string, path: string, body?: unknown) => call(stack.url, t.token, method, path, body);

interface List {
  service: string;
  path: () => string;
  defaults: PagingDefaults;
  pick?: (body: any) => any;
}

const usual = { limit: 25, max: 1000 };
const LISTS: List[] = [
  { service: 'data (records)', path: () => `/api/v1/db/data/noco/${t.baseId}/Items?`, defaults: usual },
  { service: 'meta (bases)', path: () => '/api/v1/db/meta/projects/?', defaults: usual },
  { service: 'meta (tables)', path: () => `/api/v1/db/meta/projects/${t.baseId}/tables?`, defaults: { limit: 1000, max: 1000 } },
  { service: 'hooks (hooks)', path: () => `/api/v1/db/meta/tables/${t.tableId}/hooks?`, defaults: { limit: 1000, max: 1000 } },
  { service: 'hooks (logs)', path: () => `/api/v1/db/meta/hooks/${hookId}/logs?`, defaults: usual },
  { service: 'comments', path: () => `/api/v1/db/meta/comments?fk_model_id=${t.tableId}&row_id=1&`, defaults: usual },
  { service: 'auth (api tokens)', path: () => '/api/v1/tokens?', defaults: usual },
  { service: 'auth (base members)', path: () => `/api/v1/db/meta/projects/${t.baseId}/users?`, defaults: usual, pick: (b) => b.users },
];

/** The odd inputs of the issue: each must answer 200 everywhere. */
const INPUTS = [
  'limit=abc', 'limit=0', 'limit=-1', 'limit=5000', 'limit=1.5', 'limit=2', 'limit=2&offset=-1', 'offset=-1', 'offset=abc',
  'limit=1&offset=1', 'pageSize=abc', 'pageSize=0', 'pageSize=5000', 'pageSize=1&page=2', 'page=abc&pageSize=1', 'page=0', 'page=-3&pageSize=2',
  'limit=2&limit=5', 'limit=&offset=',
];

beforeAll(async () => {
  await sink.start();
  stack = await startTestStack(allServices, { SVC_ALLOW_LOCAL_HOOKS: 'true' });
  t = await setupTable(stack.url, 'paging-rule@example.com');
  for (const name of ['a', 'b', 'c']) expect((await api('POST', `/api/v1/db/data/noco/${t.baseId}/Items`, { Name: name })).status).toBe(200);
  for (const c of ['one', 'two']) expect((await api('POST', '/api/v1/db/meta/comments', { fk_model_id: t.tableId, row_id: '1', comment: c })).status).toBe(200);
  expect((await api('POST', '/api/v1/tokens', { description: 'paging' })).status).toBe(200);
  const hook = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
    title: 'paging', event: 'after', operation: 'insert', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/h` } },
  });
  expect(hook.status).toBe(200);
  hookId = hook.body.id;
});
afterAll(async () => {
  await stack?.stop();
  await sink.stop();
});

describe('one paging rule for every list', () => {
  it.each(LISTS.map((l) => [l.service, l]))('%s answers every odd paging input by the one rule', async (_name, list) => {
    for (const input of INPUTS) {
      const res = await api('GET', `${list.path()}${input}`);
      expect({ input, status: res.status }).toEqual({ input, status: 200 });
      const page = (list.pick ?? ((b: any) => b))(res.body);
      const query = Object.fromEntries(new URLSearchParams(input));
      const expected = resolvePaging({ ...query, limit: new URLSearchParams(input).getAll('limit')[0] ?? undefined }, list.defaults);
      const { totalRows } = page.pageInfo;
      expect({ input, pageInfo: page.pageInfo }).toEqual({ input, pageInfo: pageInfo(totalRows, expected.limit, expected.offset) });
      expect(page.list.length).toBe(Math.max(0, Math.min(expected.limit, totalRows - expected.offset)));
    }
  });

  it('gives the same size for the same odd input everywhere (5000 is clamped, abc is the default, never 400)', async () => {
    for (const list of LISTS) {
      const big = await api('GET', `${list.path()}limit=5000`);
      expect({ service: list.service, size: (list.pick ?? ((b: any) => b))(big.body).pageInfo.pageSize }).toEqual({ service: list.service, size: 1000 });
      const odd = await api('GET', `${list.path()}pageSize=5000`);
      expect({ service: list.service, size: (list.pick ?? ((b: any) => b))(odd.body).pageInfo.pageSize }).toEqual({ service: list.service, size: 1000 });
      const abc = await api('GET', `${list.path()}limit=abc`);
      expect({ service: list.service, size: (list.pick ?? ((b: any) => b))(abc.body).pageInfo.pageSize }).toEqual({ service: list.service, size: list.defaults.limit });
    }
  });
});
