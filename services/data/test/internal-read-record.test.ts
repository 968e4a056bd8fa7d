import request from 'supertest';
import { signIdentity, servicePrincipal } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { sourceVariants } from './source-variants';

/** `GET /internal/data/bases/{baseId}/tables/{tableId}/records/{rowId}` (contract `dataInternalEndpoints.readRecord`). */
describe('internal readRecord', () => {
  let h: DataHarness;
  let rowId: string;
  const editor = { id: 'useditor0000001', email: 'ed@example.com' };
  const path = (base: string, table: string, row: string) => `/internal/data/bases/${base}/tables/${table}/records/${row}`;
  const asService = () => ({ 'x-tabula-identity': signIdentity(servicePrincipal('comments'), 'internal-secret-for-the-data-service-tests-0123456789') });

  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
    const created = await request(h.server).post('/api/v1/db/data/noco/pbase0000000001/Tasks').set(h.as(editor)).send({ Title: 'one' });
    rowId = String(created.body.Id);
  });
  afterAll(async () => { await h?.stop(); });

  it('answers the canonical id of an existing record, 404 otherwise', async () => {
    const ok = await request(h.server).get(path('pbase0000000001', 'mtasks00000000', rowId)).set(asService());
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ base_id: 'pbase0000000001', table_id: 'mtasks00000000', row_id: rowId });
    expect((await request(h.server).get(path('pbase0000000001', 'mtasks00000000', `0${rowId}`)).set(asService())).body.row_id).toBe(rowId);
    const missing = await request(h.server).get(path('pbase0000000001', 'mtasks00000000', '999999')).set(asService());
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    const notAKey = await request(h.server).get(path('pbase0000000001', 'mtasks00000000', 'abc')).set(asService());
    expect([notAKey.status, notAKey.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    const otherBase = await request(h.server).get(path('pother000000001', 'mtasks00000000', rowId)).set(asService());
    expect([otherBase.status, otherBase.body.error]).toEqual([404, 'ERR_TABLE_NOT_FOUND']);
  });

  it('is closed to users (services only)', async () => {
    expect((await request(h.server).get(path('pbase0000000001', 'mtasks00000000', rowId)).set(h.as(editor))).status).toBe(403);
    expect((await request(h.server).get(path('pbase0000000001', 'mtasks00000000', rowId))).status).toBe(403);
  });
});
