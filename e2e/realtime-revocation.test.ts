import { col, TEST_PASSWORD, type TestApi, type TestStack, type TestTable, type TestUser } from '@tabula/testing';
import { SseClient, startRealtimeStack } from './realtime.helpers';

let stack: TestStack;
let api: TestApi;
let root: TestUser;
let table: TestTable;

beforeAll(async () => {
  ({ stack, api } = await startRealtimeStack());
  root = await api.signUp('root');
  table = await api.baseWithTable(root, { title: 'Items', columns: [col.id(), col.text('Title')] });
}, 120_000);
afterAll(async () => { await stack?.stop(); });

/** The deadline: a stream ends within 2 s of the change that ends its access. */
const DEADLINE_MS = 2000;

async function endsWithin(sse: SseClient, event: 'revoked' | 'deleted', act: () => Promise<unknown>): Promise<void> {
  expect(sse.status).toBe(200);
  await act();
  await sse.until(() => sse.ended, DEADLINE_MS, `the stream to end with event: ${event}`);
  expect(sse.events.at(-1)?.event).toBe(event);
}

const member = async (role = 'viewer'): Promise<TestUser> => {
  const user = await api.signUp(role);
  await api.addMember(root, table.baseId, user.email, role);
  return user;
};

describe('a stream ends within 2 s when access ends', () => {
  it('the member is removed', async () => {
    const user = await member();
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { 'xc-auth': user.token });
    const other = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { 'xc-auth': root.token });
    await endsWithin(sse, 'revoked', () => api.ok('DELETE', `/api/v1/db/meta/projects/${table.baseId}/users/${user.id}`, { token: root.token }, 'remove member'));
    expect(other.ended).toBe(false);
    other.close();
  });

  it('the API token is revoked', async () => {
    const user = await member('editor');
    const created = await api.ok('POST', '/api/v1/tokens', { token: user.token, body: { description: 'feed' } }, 'token');
    const sse = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}`, { 'xc-token': String(created.body.token) });
    const session = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}`, { 'xc-auth': user.token });
    await endsWithin(sse, 'revoked', () => api.ok('DELETE', `/api/v1/tokens/${created.body.id}`, { token: user.token }, 'revoke'));
    expect(session.ended).toBe(false);
    session.close();
  });

  it('the user signs out', async () => {
    const user = await member();
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { authorization: `Bearer ${user.token}` });
    await endsWithin(sse, 'revoked', () => api.ok('POST', '/api/v1/auth/user/signout', { token: user.token }, 'sign out'));
  });

  it('the user changes the password', async () => {
    const user = await member();
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${table.id}`, { 'xc-auth': user.token });
    await endsWithin(sse, 'revoked', () => api.ok('POST', '/api/v1/auth/password/change', { token: user.token, body: { currentPassword: TEST_PASSWORD, newPassword: 'Another-long-password1!' } }, 'change password'));
  });

  it('the table is deleted (table streams end; the base stream reports it and goes on)', async () => {
    const doomed = await api.createTable(root, table.baseId, { title: 'Doomed', columns: [col.id(), col.text('Title')] });
    const sse = await SseClient.open(stack.url, `/api/v1/events/tables/${doomed.id}`, { 'xc-auth': root.token });
    const base = await SseClient.open(stack.url, `/api/v1/events/bases/${table.baseId}`, { 'xc-auth': root.token });
    await endsWithin(sse, 'deleted', () => api.ok('DELETE', `/api/v1/db/meta/tables/${doomed.id}`, { token: root.token }, 'delete table'));
    await base.until(() => base.of('meta.table.deleted').length === 1);
    expect(base.ended).toBe(false);
    base.close();
  });

  it('the base is deleted', async () => {
    const doomed = await api.baseWithTable(root, { title: 'Gone', columns: [col.id(), col.text('Title')] });
    const sse = await SseClient.open(stack.url, `/api/v1/events/bases/${doomed.baseId}`, { 'xc-auth': root.token });
    const tableStream = await SseClient.open(stack.url, `/api/v1/events/tables/${doomed.id}`, { 'xc-auth': root.token });
    await endsWithin(sse, 'deleted', () => api.ok('DELETE', `/api/v1/db/meta/projects/${doomed.baseId}`, { token: root.token }, 'delete base'));
    await tableStream.until(() => tableStream.ended, DEADLINE_MS);
    expect(tableStream.events.at(-1)?.event).toBe('deleted');
  });
});
