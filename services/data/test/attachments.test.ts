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
  it('writes claim the attachments with storage (one call per column), reads sign a whole page in one call', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ Title: `t${i}`, Files: [file(i), file(i + 100)] }));
    h.apis.storageCalls.length = 0;
    expect((await request(h.server).post(T.replace('/data/', '/data/bulk/')).set(h.as(editor)).send(rows)).status).toBe(200);
    const claims = h.apis.storageCalls.filter((c) => c.path === '/internal/attachments/claim');
    expect(claims).toHaveLength(1);
    expect((claims[0].body as { items: unknown[]; columnId: string }).items).toHaveLength(60);

    h.apis.storageCalls.length = 0;
    const page = await request(h.server).get(`${T}?limit=25`).set(h.as(editor));
    expect(page.status).toBe(200);
    expect(page.body.list).toHaveLength(25);
    const signs = h.apis.storageCalls.filter((c) => c.path === '/internal/attachments/sign');
    expect(signs).toHaveLength(1);
    expect((signs[0].body as { items: unknown[] }).items).toHaveLength(50);
    expect(page.body.list[0].Files[0].signedPath).toMatch(/^dltemp\/test-/);
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
