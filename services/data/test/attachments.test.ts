import request from 'supertest';
import { signIdentity } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { sourceVariants } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const T = '/api/v1/db/data/noco/pbase0000000001/Tasks';
const file = (n: number) => ({ path: `download/uploads/f${n}_0123456789abcdef.txt`, title: `f${n}.txt`, mimetype: 'text/plain', size: n });

let h: DataHarness;
let tableId: string;
let filesColumnId: string;
beforeAll(async () => {
  h = await startDataHarness();
  const context = await sourceVariants[0].setup(h.database.url);
  h.apis.tables.set('tasks', context);
  h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
  tableId = context.table.id;
  filesColumnId = context.table.columns.find((c) => c.title === 'Files')!.id;
  h.apis.signLinks = true;
});
afterAll(async () => { await h?.stop(); });

describe('attachment cells in the data service', () => {
  it('writes claim the attachments with storage (one call, with the base and the writer), reads sign a whole page of the base in one call', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ Title: `t${i}`, Files: [file(i), file(i + 100)] }));
    h.apis.storageCalls.length = 0;
    expect((await request(h.server).post(T.replace('/data/', '/data/bulk/')).set(h.as(editor)).send(rows)).status).toBe(200);
    const claims = h.apis.storageCalls.filter((c) => c.path === '/internal/attachments/claim');
    expect(claims).toHaveLength(1);
    const claim = claims[0].body as { baseId: string; tableId: string; userId: string; items: { columnId: string; path: string }[] };
    expect({ baseId: claim.baseId, tableId: claim.tableId, userId: claim.userId }).toEqual({ baseId: 'pbase0000000001', tableId, userId: editor.id });
    expect(claim.items).toHaveLength(60);
    expect(claim.items[0]).toEqual({ columnId: filesColumnId, path: file(0).path });

    h.apis.storageCalls.length = 0;
    const page = await request(h.server).get(`${T}?limit=25`).set(h.as(editor));
    expect(page.status).toBe(200);
    expect(page.body.list).toHaveLength(25);
    const signs = h.apis.storageCalls.filter((c) => c.path === '/internal/attachments/sign');
    expect(signs).toHaveLength(1);
    expect((signs[0].body as { items: unknown[] }).items).toHaveLength(50);
    expect((signs[0].body as { baseId: string }).baseId).toBe('pbase0000000001');
    expect(page.body.list[0].Files[0].signedPath).toMatch(/^dltemp\/test-/);
  });

  it('a file storage refuses (another base\'s, another user\'s upload) fails the whole bulk write with a 400 naming the field', async () => {
    const before = (await request(h.server).get(`${T}/count`).set(h.as(editor))).body.count;
    h.apis.refusedPaths.add(file(501).path);
    try {
      const res = await request(h.server).post(T.replace('/data/', '/data/bulk/')).set(h.as(editor))
        .send([{ Title: 'fine', Files: [file(500)] }, { Title: 'stolen', Files: [file(501)] }]);
      expect([res.status, res.body.error]).toEqual([400, 'ERR_INVALID_ATTACHMENT']);
      expect(res.body.message).toBe(`Column 'Files': '${file(501).path}' is neither a file you uploaded nor an attachment of this base`);
      expect((await request(h.server).get(`${T}/count`).set(h.as(editor))).body.count).toBe(before);
    } finally {
      h.apis.refusedPaths.clear();
    }
  });

  it('internal attachment-refs: which values a column (or one row) still holds', async () => {
    const asService = signIdentity({ kind: 'service', id: 'storage', roles: [] }, 'internal-secret-for-the-data-service-tests-0123456789');
    const refs = (body: unknown) => request(h.server).post('/internal/attachment-refs').set({ 'x-tabula-identity': asService }).send(body as object);
    const all = await refs({ tableId, columnId: filesColumnId, values: [file(3).path, file(103).path, 'download/uploads/none.txt'] });
    expect(all.status).toBe(200);
    expect(all.body.referenced.sort()).toEqual([file(3).path, file(103).path].sort());
    const first = (await request(h.server).get(`${T}?limit=1&sort=Id`).set(h.as(editor))).body.list[0];
    const inRow = await refs({ tableId, columnId: filesColumnId, rowId: String(first.Id), values: [file(3).path, first.Files[0].path] });
    expect(inRow.body.referenced).toEqual([first.Files[0].path]);
    expect((await request(h.server).post('/internal/attachment-refs').set(h.as(editor)).send({ tableId, columnId: filesColumnId, values: ['x'] })).status).toBe(403);
  });
});
