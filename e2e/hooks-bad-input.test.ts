import { TestApi, startTestStack, type TestStack, type TestUser } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { call, setupTable } from './hooks-e2e.helpers';

let stack: TestStack;
let t: Awaited<ReturnType<typeof setupTable>>;
/** A second user (org-level viewer: no base of their own). */
let other: TestUser;

const valid = (path: string, extra: Record<string, unknown> = {}) => ({
  title: 'h', event: 'after', operation: 'insert', version: 'v2', notification: { type: 'URL', payload: { method: 'POST', path } }, ...extra,
});

beforeAll(async () => {
  stack = await startTestStack(allServices);
  t = await setupTable(stack.url, 'hooks-bad@example.com');
  other = await new TestApi(stack.url).signUp('hooks', 'hooks-other@example.com');
});
afterAll(async () => { await stack?.stop(); });

describe('hooks: bad input (400 with the compat-notes body)', () => {
  const create = (body: unknown, tableId = t.tableId, token = t.token) => call(stack.url, token, 'POST', `/api/v1/db/meta/tables/${tableId}/hooks`, body);

  it.each([
    ['unknown event', valid('https://example.com', { event: 'sometimes' })],
    ['event view (nothing emits it)', valid('https://example.com', { event: 'view' })],
    ['event field (nothing emits it)', valid('https://example.com', { event: 'field' })],
    ['unknown operation', valid('https://example.com', { operation: 'explode' })],
    ['v3 operation not in the list', valid('https://example.com', { version: 'v3', operation: ['insert', 'bulkInsert'] })],
    ['version v4', valid('https://example.com', { version: 'v4' })],
    ['invalid URL', valid('not a url')],
    ['file: scheme', valid('file:///etc/passwd')],
    ['gopher: scheme', valid('gopher://example.com:70/x')],
    ['target 127.0.0.1 without the flag', valid('http://127.0.0.1:8080/x')],
    ['target localhost without the flag', valid('http://localhost:8080/x')],
    ['target 169.254.169.254', valid('http://169.254.169.254/latest/meta-data')],
    ['IPv4-mapped IPv6 loopback', valid('http://[::ffff:127.0.0.1]/x')],
    ['negative retries', valid('https://example.com', { retries: -1 })],
    ['timeout 0', valid('https://example.com', { timeout: 0 })],
    ['timeout over 10 minutes', valid('https://example.com', { timeout: 600001 })],
    ['template syntax error in the body', valid('https://example.com', { notification: { type: 'URL', payload: { path: 'https://example.com', body: '{{#if data}' } } })],
    ['template syntax error in a header', valid('https://example.com', { notification: { type: 'URL', payload: { path: 'https://example.com', headers: [{ name: 'x', value: '{{ user.email', enabled: true }] } } })],
  ])('%s → 400', async (_name, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_INVALID_REQUEST_BODY' });
    expect(res.body.msg).toBe(res.body.message);
  });

  it('a hook on another user\'s table answers like an unknown table (404); unknown hook → 404', async () => {
    // the first user is the super admin, so the second one tries the first one's table
    const res = await create(valid('https://example.com'), t.tableId, other.token);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_TABLE_NOT_FOUND');
    expect((await create(valid('https://example.com'), 'mnotatable0000000')).status).toBe(404);
    const missing = await call(stack.url, t.token, 'PATCH', '/api/v1/db/meta/hooks/hk00000000000000', { title: 'x' });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_HOOK_NOT_FOUND' } });
  });

  it('a valid public target is accepted with the spec defaults, and the test call refuses loopback', async () => {
    const res = await create(valid('https://example.com/hook', { operation: ['insert'], version: 'v3' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^hk[0-9a-z]{14}$/), active: true, retries: 10, retry_interval: 60000, timeout: 60000, operation: ['insert'] });
    const test = await call(stack.url, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks/test`, { hook: valid('http://127.0.0.1:9/x'), payload: {} });
    expect(test.status).toBe(400);
  });

  it('PATCH to event view or field (nothing emits them) → 400, the hook unchanged', async () => {
    const hook = (await create(valid('https://example.com/hook'))).body;
    for (const event of ['view', 'field']) {
      const res = await call(stack.url, t.token, 'PATCH', `/api/v1/db/meta/hooks/${hook.id}`, { event });
      expect(res).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_REQUEST_BODY', msg: `Hooks on '${event}' events are not supported yet (after, before and manual are)` } });
    }
    const list = await call(stack.url, t.token, 'GET', `/api/v1/db/meta/tables/${t.tableId}/hooks`);
    expect(list.body.list.find((h: { id: string }) => h.id === hook.id).event).toBe('after');
  });
});
