import { randomBytes } from 'node:crypto';
import knex from 'knex';
import { TestApi, col, columnOf, createTestDatabase, type TestDatabase } from '@tabula/testing';
import { rawGet, upload } from '../storage-e2e.helpers';
import { startSecurityStack, type SecurityStack, type TestUser } from './security.helpers';

/**
 * Issue 28 (security audit of attachments), findings 1, 3 and 6: a stored
 * file enters an Attachment cell only when the writer uploaded it and no base
 * has it yet, or it already belongs to the record's base; links and
 * downloads follow the file's base, not whatever a cell holds; a file the
 * caller may not read answers exactly like a missing one. The users: an
 * owner, a member removed from the owner's base, a user of another base.
 */
const SECRET = `private-${randomBytes(6).toString('hex')}`;
const MISSING = 'download/uploads/missing_0123456789abcdef.txt';
let s: SecurityStack;
let api: TestApi;
let owner: TestUser;
let removed: TestUser;
let stranger: TestUser;
/** The owner's base A, its table and the record holding the private file. */
let a: { baseId: string; tableId: string; filesColumnId: string };
/** The private file as a reader of A saw it in the record (signed link dropped: it expires). */
let leaked: Record<string, unknown> & { path: string };
const external: TestDatabase[] = [];

type Att = { path: string; title: string; mimetype: string; size: number; signedPath?: string };

async function attachmentTable(user: TestUser): Promise<{ baseId: string; tableId: string; filesColumnId: string }> {
  const table = await api.baseWithTable(user, { title: 'Docs', table_name: 'docs', columns: [col.id(), col.text('Name'), col.attachment('Files')] });
  return { baseId: table.baseId, tableId: table.id, filesColumnId: columnOf(table, 'Files').id };
}

async function uploadOne(user: TestUser, name: string, data: string): Promise<Att> {
  const res = await upload(s.url, user.token, [{ name, type: 'text/plain', data: Buffer.from(data) }]);
  expect(res.status).toBe(200);
  return res.body[0] as Att;
}

const rowsOf = (t: { baseId: string; tableId: string }) => `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`;
const write = (user: TestUser, t: { baseId: string; tableId: string }, body: unknown, method = 'POST', suffix = '') => s.call(method, `${rowsOf(t)}${suffix}`, { token: user.token, body });
const withoutLink = ({ signedPath: _s, signedUrl: _u, ...rest }: Record<string, unknown>) => rest;
const answer = async (user: TestUser | undefined, path: string) => {
  const res = await rawGet(s.url, path, user ? { 'xc-auth': user.token } : {});
  return { status: res.status, body: res.body.toString() };
};

beforeAll(async () => {
  // SVC_ALLOW_LOCAL_SOURCES: the external source of the last test is this machine's PostgreSQL.
  s = await startSecurityStack({ SVC_ALLOW_LOCAL_SOURCES: 'true' });
  api = new TestApi(s.url);
  owner = await s.signUp('att-owner');
  removed = await s.signUp('att-removed');
  stranger = await s.signUp('att-stranger');
  a = await attachmentTable(owner);
  await s.addMember(owner, a.baseId, removed.email, 'editor');
  const file = await uploadOne(owner, 'salaries.txt', SECRET);
  expect((await write(owner, a, { Name: 'private', Files: [withoutLink(file)] })).status).toBe(200);
  // The member reads the record (as a hook payload or an export would show it), then is removed.
  const seen = await s.call('GET', rowsOf(a), { token: removed.token });
  expect(seen.status).toBe(200);
  leaked = withoutLink(seen.body.list[0].Files[0]) as typeof leaked;
  expect((await s.call('DELETE', `/api/v1/db/meta/projects/${a.baseId}/users/${removed.id}`, { token: owner.token })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await s?.stop();
  for (const db of external) await db.drop().catch(() => undefined);
});

describe('issue 28: attachments belong to a base', () => {
  it('finding 1: a removed member and a user of another base cannot put a known path into a record of their own base', async () => {
    for (const user of [removed, stranger]) {
      const own = await attachmentTable(user);
      for (const cell of [[leaked], [{ ...leaked, path: `/${leaked.path}` }], [{ path: leaked.path, title: 'x.txt', mimetype: 'text/plain', size: 1 }]]) {
        const res = await write(user, own, { Name: 'stolen', Files: cell });
        expect({ user: user.email, status: res.status, error: res.body.error }).toEqual({ user: user.email, status: 400, error: 'ERR_INVALID_ATTACHMENT' });
        expect(res.body.message).toContain("Column 'Files'");
      }
      // bulk: all or nothing; the writer's own fresh upload in the refused request joins no base
      const mine = await uploadOne(user, 'mine.txt', 'mine');
      const bulk = await s.call('POST', rowsOf(own).replace('/data/', '/data/bulk/'), { token: user.token, body: [{ Name: 'ok', Files: [mine] }, { Name: 'stolen', Files: [leaked] }] });
      expect([bulk.status, bulk.body.error]).toEqual([400, 'ERR_INVALID_ATTACHMENT']);
      expect((await s.call('GET', rowsOf(own), { token: user.token })).body.list).toEqual([]);
      const second = await attachmentTable(user);
      const created = await write(user, second, { Name: 'ok', Files: [mine] });
      expect(created.status).toBe(200);
      // an update of an existing record is refused alike and leaves the record as it was
      const patched = await write(user, second, { Files: [mine, leaked] }, 'PATCH', `/${created.body.Id}`);
      expect([patched.status, patched.body.error]).toEqual([400, 'ERR_INVALID_ATTACHMENT']);
      const after = (await s.call('GET', `${rowsOf(second)}/${created.body.Id}`, { token: user.token })).body;
      expect(after.Files.map((f: Att) => f.path)).toEqual([mine.path]);
    }
    // the owner's own base still takes the file again (it belongs there)
    expect((await write(owner, a, { Name: 'again', Files: [leaked] })).status).toBe(200);
  });

  it('finding 1: a path written straight into an external source gets no signed link and no download when the file is another base\'s', async () => {
    const database = await createTestDatabase('tabula_att');
    external.push(database);
    const u = new URL(database.url);
    const connection = { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) };
    const base = await s.call('POST', '/api/v1/db/meta/projects', { token: stranger.token, body: { title: `Ext ${randomBytes(3).toString('hex')}`, external: true, sources: [{ type: 'pg', config: { client: 'pg', connection } }] } });
    expect(base.status).toBe(200);
    const table = await api.createTable(stranger, base.body.id, { title: 'Docs', table_name: 'docs', columns: [col.id(), col.text('Name'), col.attachment('Files')] });
    const t = { baseId: base.body.id as string, tableId: table.id, filesColumnId: columnOf(table, 'Files').id };
    // the stranger's own file, written through the API: linked and downloadable (the check is not vacuous)
    const mine = await uploadOne(stranger, 'mine.txt', 'mine');
    const ownRow = await write(stranger, t, { Name: 'own', Files: [mine] });
    expect(ownRow.status).toBe(200);
    // the owner's private file, written into the external table outside the API
    const db = knex({ client: 'pg', connection: database.url, pool: { min: 0, max: 1 } });
    try {
      const [{ id }] = await db('docs').insert({ name: 'planted', files: JSON.stringify([leaked]) }).returning('id');
      const read = await s.call('GET', `${rowsOf(t)}/${id}`, { token: stranger.token });
      expect(read.status).toBe(200);
      expect(read.body.Files[0].path).toBe(leaked.path);
      expect(read.body.Files[0].signedPath).toBeUndefined();
      const page = await s.call('GET', rowsOf(t), { token: stranger.token });
      const byName = Object.fromEntries(page.body.list.map((r: { Name: string; Files: Att[] }) => [r.Name, r.Files[0].signedPath]));
      expect(byName).toEqual({ own: expect.stringMatching(/^dltemp\//), planted: undefined });
      expect((await rawGet(s.url, `/${byName.own}`)).body.toString()).toBe('mine');
      const dl = (rowId: number, urlOrPath: string) => answer(stranger, `/api/v2/downloadAttachment/${t.tableId}/${t.filesColumnId}/${rowId}?urlOrPath=${encodeURIComponent(urlOrPath)}`);
      expect(await dl(ownRow.body.Id, mine.path)).toEqual({ status: 200, body: 'mine' });
      const planted = await dl(id, leaked.path);
      expect(planted.body).not.toContain(SECRET);
      expect(planted).toEqual(await dl(id, MISSING));
      expect(planted.status).toBe(404);
    } finally {
      await db.destroy();
    }
  });

  it('finding 3: another user\'s fresh upload cannot be taken into one\'s base; its uploader keeps it', async () => {
    const fresh = await uploadOne(owner, 'draft.txt', `draft ${SECRET}`);
    const theirs = await attachmentTable(stranger);
    const taken = await write(stranger, theirs, { Name: 'taken', Files: [fresh] });
    expect([taken.status, taken.body.error]).toEqual([400, 'ERR_INVALID_ATTACHMENT']);
    expect(await answer(owner, `/${fresh.path}`)).toEqual({ status: 200, body: `draft ${SECRET}` });
    expect((await write(owner, a, { Name: 'draft', Files: [fresh] })).status).toBe(200);
    // a fresh upload goes to one base only, even when its uploader races two writes
    const twice = await uploadOne(stranger, 'twice.txt', 'twice');
    const other = await attachmentTable(stranger);
    const results = await Promise.all([write(stranger, theirs, { Name: 'one', Files: [twice] }), write(stranger, other, { Name: 'two', Files: [twice] })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('finding 6: /download of a file the caller may not read answers exactly like a missing file', async () => {
    const missing = await answer(stranger, `/${MISSING}`);
    expect(missing.status).toBe(404);
    for (const user of [stranger, removed]) {
      const attached = await answer(user, `/${leaked.path}`);
      expect({ user: user.email, ...attached }).toEqual({ user: user.email, ...(await answer(user, `/${MISSING}`)) });
    }
    const fresh = await uploadOne(owner, 'unattached.txt', SECRET);
    expect(await answer(stranger, `/${fresh.path}`)).toEqual(missing);
    expect(await answer(owner, `/${leaked.path}`)).toEqual({ status: 200, body: SECRET });
  });
});
