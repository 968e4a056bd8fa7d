import { TestApi, col } from '@tabula/testing';
import { startSecurityStack, type SecurityStack, type TestUser } from './security/security.helpers';

/**
 * Who may call storage's scoped endpoints, as their contracts declare it
 * (issue 28 conversion): usage needs base.update on the named base,
 * downloadAttachment data.read on the record's table; a caller with no role
 * there (another tenant, a base-scoped token of another base) gets exactly
 * the answer of a missing base or table, a weaker member 403.
 */
let s: SecurityStack;
let owner: TestUser;
let editor: TestUser;
let stranger: TestUser;
let baseId: string;
let tableId: string;
let strangerToken: string;

beforeAll(async () => {
  s = await startSecurityStack();
  const api = new TestApi(s.url);
  [owner, editor, stranger] = [await s.signUp('usage-owner'), await s.signUp('usage-editor'), await s.signUp('usage-stranger')];
  const table = await api.baseWithTable(owner, { title: 'Docs', table_name: 'docs', columns: [col.id(), col.text('Name'), col.attachment('Files')] });
  [baseId, tableId] = [table.baseId, table.id];
  await s.addMember(owner, baseId, editor.email, 'editor');
  strangerToken = await api.baseToken(stranger, await s.createBase(stranger, 'Elsewhere'));
}, 120_000);
afterAll(async () => { await s?.stop(); });

const said = (r: { status: number; body: any }) => ({ status: r.status, error: r.body?.error });

describe('storage scoped endpoints answer as their contracts declare', () => {
  it('usage: creators and owners; an editor 403; no role in the base answers like a missing base', async () => {
    const usage = (id: string, auth: { token?: string; apiToken?: string }) => s.call('GET', `/api/v1/db/storage/usage/${id}`, auth);
    expect((await usage(baseId, { token: owner.token })).body).toEqual({ baseId, files: 0, bytes: 0 });
    expect(said(await usage(baseId, { token: editor.token }))).toEqual({ status: 403, error: 'ERR_FORBIDDEN' });
    const missing = said(await usage('pmissing0000000', { token: stranger.token }));
    expect(missing).toEqual({ status: 404, error: 'ERR_BASE_NOT_FOUND' });
    expect(said(await usage(baseId, { token: stranger.token }))).toEqual(missing);
    expect(said(await usage(baseId, { apiToken: strangerToken }))).toEqual(missing);
    expect(said(await usage(baseId, {}))).toMatchObject({ status: 401 });
  });

  it('downloadAttachment: no role in the table\'s base answers like a missing table', async () => {
    const dl = (table: string, auth: { token?: string; apiToken?: string }) => s.call('GET', `/api/v2/downloadAttachment/${table}/c1/1?urlOrPath=download%2Fuploads%2Fx.txt`, auth);
    const missing = said(await dl('mmissing0000000', { token: stranger.token }));
    expect(missing).toEqual({ status: 404, error: 'ERR_TABLE_NOT_FOUND' });
    expect(said(await dl(tableId, { token: stranger.token }))).toEqual(missing);
    expect(said(await dl(tableId, { apiToken: strangerToken }))).toEqual(missing);
    expect(said(await dl(tableId, { token: editor.token }))).toEqual({ status: 404, error: 'ERR_FILE_NOT_FOUND' });
  });
});
