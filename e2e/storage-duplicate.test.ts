import { randomBytes } from 'node:crypto';
import { TestApi, col, columnOf } from '@tabula/testing';
import { rawGet, upload } from './storage-e2e.helpers';
import { startSecurityStack, type SecurityStack, type TestUser } from './security/security.helpers';

/**
 * A duplicated base and its attachments: the copy's rows are copied in SQL, so
 * its cells hold the source's files. Those files belong to the copy too
 * (storage's object_bases, shared by meta's duplicate): the copy signs and
 * serves them, takes them back when a record is saved again, and the garbage
 * collector keeps them for the copy once the source is deleted; a third base
 * still cannot take them.
 */
const SECRET = `dup-${randomBytes(6).toString('hex')}`;
let s: SecurityStack;
let api: TestApi;
let owner: TestUser;
let stranger: TestUser;
let reader: TestUser;

type Att = { path: string; title: string; mimetype: string; size: number; signedPath?: string };
type Table = { baseId: string; tableId: string; filesColumnId: string };

const rowsOf = (t: Table) => `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`;
const withoutLink = ({ signedPath: _s, signedUrl: _u, ...rest }: Record<string, unknown>) => rest;

async function attachmentTable(user: TestUser): Promise<Table> {
  const table = await api.baseWithTable(user, { title: 'Docs', table_name: 'docs', columns: [col.id(), col.text('Name'), col.attachment('Files')] });
  return { baseId: table.baseId, tableId: table.id, filesColumnId: columnOf(table, 'Files').id };
}

async function uploadOne(user: TestUser, name: string, data: string): Promise<Att> {
  const res = await upload(s.url, user.token, [{ name, type: 'text/plain', data: Buffer.from(data) }]);
  expect(res.status).toBe(200);
  return res.body[0] as Att;
}

/** A record holding a fresh file; answers the file as stored. */
async function recordWithFile(user: TestUser, t: Table, name: string, data: string): Promise<Att> {
  const file = await uploadOne(user, name, data);
  const res = await s.call('POST', rowsOf(t), { token: user.token, body: { Name: name, Files: [withoutLink(file)] } });
  expect(res.status).toBe(200);
  return file;
}

/** The copy's table of the same title. */
async function tableOfCopy(user: TestUser, copyId: string, source: Table): Promise<Table> {
  const list = (await s.call('GET', `/api/v1/db/meta/projects/${copyId}/tables`, { token: user.token })).body.list as { id: string; title: string }[];
  const id = list.find((t) => t.title === 'Docs')!.id;
  const meta = (await s.call('GET', `/api/v1/db/meta/tables/${id}`, { token: user.token })).body;
  expect(meta.columns.some((c: { id: string }) => c.id === source.filesColumnId)).toBe(false);
  return { baseId: copyId, tableId: id, filesColumnId: meta.columns.find((c: { title: string }) => c.title === 'Files').id };
}

const text = async (path: string, token?: string) => {
  const res = await rawGet(s.url, path, token ? { 'xc-auth': token } : {});
  return { status: res.status, body: res.body.toString() };
};

beforeAll(async () => {
  // a short GC grace and interval so the collector runs inside the test
  s = await startSecurityStack({ SVC_ATTACHMENT_GC_GRACE_SECONDS: '2', SVC_ATTACHMENT_GC_INTERVAL_SECONDS: '1' });
  api = new TestApi(s.url);
  owner = await s.signUp('dup-owner');
  stranger = await s.signUp('dup-stranger');
  reader = await s.signUp('dup-reader', { promote: false });
}, 120_000);
afterAll(async () => { await s?.stop(); });

describe('duplicating a base with its attachments', () => {
  it('the copy signs, serves and takes back the files; the GC keeps them after the source is deleted; a third base cannot take them', async () => {
    const source = await attachmentTable(owner);
    const file = await recordWithFile(owner, source, 'report.txt', SECRET);
    // a second record the copy never writes: only the share tells the collector the copy holds its file
    const archived = await recordWithFile(owner, source, 'archive.txt', `archive ${SECRET}`);
    const dup = await s.call('POST', `/api/v1/db/meta/duplicate/${source.baseId}`, { token: owner.token, body: {} });
    expect(dup.status).toBe(200);
    const copy = await tableOfCopy(owner, dup.body.id, source);

    // the copy's record links and serves the file (signed link, downloadAttachment)
    const [record, archive] = (await s.call('GET', rowsOf(copy), { token: owner.token })).body.list as { Id: number; Files: Att[] }[];
    expect(record.Files[0].path).toBe(file.path);
    expect(record.Files[0].signedPath).toMatch(/^dltemp\//);
    expect(await text(`/${record.Files[0].signedPath}`)).toEqual({ status: 200, body: SECRET });
    const cell = `/api/v2/downloadAttachment/${copy.tableId}/${copy.filesColumnId}/${record.Id}?urlOrPath=${encodeURIComponent(file.path)}`;
    expect(await text(cell, owner.token)).toEqual({ status: 200, body: SECRET });

    // saving the record again with its attachment, and a new record with it, are accepted in the copy
    const again = await s.call('PATCH', `${rowsOf(copy)}/${record.Id}`, { token: owner.token, body: { Name: 'saved again', Files: [withoutLink(record.Files[0])] } });
    expect([again.status, again.body.error]).toEqual([200, undefined]);
    expect((await s.call('POST', rowsOf(copy), { token: owner.token, body: { Name: 'second', Files: [withoutLink(record.Files[0])] } })).status).toBe(200);

    // a member of the copy alone reads the file through /download
    await s.addMember(owner, copy.baseId, reader.email, 'viewer');
    expect(await text(`/${file.path}`, reader.token)).toEqual({ status: 200, body: SECRET });
    expect((await s.call('GET', `/api/v1/db/storage/usage/${copy.baseId}`, { token: owner.token })).body)
      .toEqual({ baseId: copy.baseId, files: 2, bytes: SECRET.length + `archive ${SECRET}`.length });

    // a third base (the owner's own, or another user's) still cannot take the file
    for (const user of [owner, stranger]) {
      const third = await attachmentTable(user);
      const taken = await s.call('POST', rowsOf(third), { token: user.token, body: { Name: 'taken', Files: [withoutLink(record.Files[0])] } });
      expect({ user: user.email, status: taken.status, error: taken.body.error }).toEqual({ user: user.email, status: 400, error: 'ERR_INVALID_ATTACHMENT' });
    }

    // the source is deleted; a control base's file (deleted after it) shows the collector has run past the grace period
    const control = await attachmentTable(owner);
    const controlFile = await recordWithFile(owner, control, 'control.txt', 'control');
    expect((await s.call('DELETE', `/api/v1/db/meta/projects/${source.baseId}`, { token: owner.token })).status).toBe(200);
    expect((await s.call('DELETE', `/api/v1/db/meta/projects/${control.baseId}`, { token: owner.token })).status).toBe(200);
    const deadline = Date.now() + 30_000;
    // (through its signed link: /download already hides a deleted base's files from its former members)
    while (Date.now() < deadline && (await text(`/${controlFile.signedPath}`)).status !== 404) await new Promise((r) => setTimeout(r, 500));
    expect((await text(`/${controlFile.signedPath}`)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 3000));
    const kept = async (id: number) => ((await s.call('GET', `${rowsOf(copy)}/${id}`, { token: owner.token })).body as { Files: Att[] }).Files[0];
    expect(await text(`/${(await kept(record.Id)).signedPath}`)).toEqual({ status: 200, body: SECRET });
    const keptArchive = await kept(archive.Id);
    expect(keptArchive.path).toBe(archived.path);
    expect(await text(`/${keptArchive.signedPath}`)).toEqual({ status: 200, body: `archive ${SECRET}` });
    expect(await text(`/${file.path}`, reader.token)).toEqual({ status: 200, body: SECRET });
  }, 120_000);
});
