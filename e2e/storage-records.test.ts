import { randomBytes } from 'node:crypto';
import { Api } from 'nocodb-sdk';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { attachmentTable, json, rawGet, sha256, signup, upload } from './storage-e2e.helpers';

let stack: TestStack;
let token: string;
let api: Api<unknown>;

beforeAll(async () => {
  // a short GC grace and interval so the collector runs inside the test
  stack = await startTestStack(allServices, { SVC_ATTACHMENT_GC_GRACE_SECONDS: '2', SVC_ATTACHMENT_GC_INTERVAL_SECONDS: '1' });
  token = await signup(stack.url, 'storage-records@example.com');
  api = new Api({ baseURL: stack.url, headers: { 'xc-auth': token } });
});
afterAll(async () => { await stack.stop(); });

type Att = { path: string; title: string; mimetype: string; size: number; signedPath?: string };

describe('attachment columns', () => {
  it('a record read through nocodb-sdk carries working signed links', async () => {
    const { baseId, tableId } = await attachmentTable(stack.url, token);
    const bytes = randomBytes(10_000);
    const [fromFile] = (await upload(stack.url, token, [{ name: 'scan.pdf', type: 'application/pdf', data: bytes }])).body as Att[];
    const [fromUrl] = (await api.storage.uploadByUrl({ path: 'noco/sdk' }, [{ url: `data:text/plain;base64,${Buffer.from('by url').toString('base64')}`, fileName: 'note.txt' } as never])) as Att[];
    // stored without the signed links: they are added fresh on every read
    const cell = [fromFile, fromUrl].map(({ signedPath: _s, ...rest }) => rest);
    const created = (await api.dbTableRow.create('noco', baseId, tableId, { Name: 'with files', Files: cell })) as { Id: number };
    const read = (await api.dbTableRow.read('noco', baseId, tableId, created.Id)) as { Files: Att[] };
    expect(read.Files.map((f) => f.title)).toEqual(['scan.pdf', 'note.txt']);
    for (const f of read.Files) expect(f.signedPath).toMatch(/^dltemp\//);
    expect(sha256((await rawGet(stack.url, `/${read.Files[0].signedPath}`)).body)).toBe(sha256(bytes));
    expect((await rawGet(stack.url, `/${read.Files[1].signedPath}`)).body.toString()).toBe('by url');
    const page = (await api.dbTableRow.list('noco', baseId, tableId)) as { list: { Files: Att[] }[] };
    expect(page.list[0].Files[0].signedPath).toMatch(/^dltemp\//);
    const found = (await api.dbTableRow.findOne('noco', baseId, tableId, {})) as { Files: Att[] };
    expect((await rawGet(stack.url, `/${found.Files[1].signedPath}`)).status).toBe(200);
  });

  it('only files this storage issued are accepted by path; a file by external url is kept as given, never signed (issue 29)', async () => {
    const { baseId, tableId } = await attachmentTable(stack.url, token);
    const rows = `/api/v1/db/data/noco/${baseId}/${tableId}`;
    const external = { url: 'https://files.example/x.png', title: 'x.png', mimetype: 'image/png', size: 1 };
    const kept = await json(stack.url, token, 'POST', rows, { Name: 'external', Files: [external] });
    expect(kept.status).toBe(200);
    expect(kept.body.Files).toEqual([external]);
    for (const forged of [
      [{ path: 'download/uploads/never_uploaded.png', title: 'x.png', mimetype: 'image/png', size: 1 }],
      [{ url: 'https://user:secret@files.example/x.png', title: 'x.png', mimetype: 'image/png', size: 1 }],
      [{ path: '../../etc/passwd', title: 'p', mimetype: 'text/plain', size: 1 }],
    ]) {
      const res = await json(stack.url, token, 'POST', rows, { Name: 'forged', Files: forged });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_INVALID_ATTACHMENT');
    }
    const [ok] = (await upload(stack.url, token, [{ name: 'a.txt', data: Buffer.from('a') }])).body as Att[];
    const created = await json(stack.url, token, 'POST', rows, { Name: 'ok', Files: [ok] });
    expect(created.status).toBe(200);
    const bulk = await json(stack.url, token, 'PATCH', rows.replace('/data/', '/data/bulk/'), [{ Id: created.body.Id, Files: [{ ...ok, path: 'download/uploads/other.txt' }] }]);
    expect(bulk.status).toBe(400);
  });

  it('GC removes files no record references after the grace period, keeps referenced ones', async () => {
    const { baseId, tableId } = await attachmentTable(stack.url, token);
    const rows = `/api/v1/db/data/noco/${baseId}/${tableId}`;
    const up = async (name: string) => ((await upload(stack.url, token, [{ name, data: Buffer.from(name) }])).body as Att[])[0];
    const [kept, never, cleared, deleted] = [await up('kept.txt'), await up('never.txt'), await up('cleared.txt'), await up('deleted.txt')];
    const keptRow = await json(stack.url, token, 'POST', rows, { Name: 'kept', Files: [kept] });
    const clearedRow = await json(stack.url, token, 'POST', rows, { Name: 'cleared', Files: [cleared] });
    const deletedRow = await json(stack.url, token, 'POST', rows, { Name: 'deleted', Files: [deleted] });
    expect([keptRow.status, clearedRow.status, deletedRow.status]).toEqual([200, 200, 200]);
    await json(stack.url, token, 'PATCH', `${rows}/${clearedRow.body.Id}`, { Files: null });
    await json(stack.url, token, 'DELETE', `${rows}/${deletedRow.body.Id}`);
    // deleting or clearing leaves the bytes (until the grace period has passed)
    expect((await rawGet(stack.url, `/${cleared.signedPath}`)).status).toBe(200);
    const status = async (a: Att) => (await rawGet(stack.url, `/${a.signedPath}`)).status;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && ((await status(never)) !== 404 || (await status(cleared)) !== 404 || (await status(deleted)) !== 404)) {
      await new Promise((r) => setTimeout(r, 500));
    }
    expect({ never: await status(never), cleared: await status(cleared), deleted: await status(deleted), kept: await status(kept) })
      .toEqual({ never: 404, cleared: 404, deleted: 404, kept: 200 });
    const usage = await json(stack.url, token, 'GET', `/api/v1/db/storage/usage/${baseId}`);
    expect(usage.body).toEqual({ baseId, files: 1, bytes: 'kept.txt'.length });
  });
});
