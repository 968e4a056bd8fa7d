import request from 'supertest';
import { signIdentity, servicePrincipal } from '@tabula/auth';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { sourceVariants } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const INTERNAL = 'internal-secret-for-the-data-service-tests-0123456789';

describe('internal read of a record (GET /internal/tables/{tableId}/records/{recordId})', () => {
  let h: DataHarness;
  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`pbase0000000001:${editor.id}`, 'editor');
  });
  afterAll(async () => { await h?.stop(); });

  const asService = () => ({ 'x-tabula-identity': signIdentity(servicePrincipal('hooks'), INTERNAL) });

  it('answers the record with every column, 404 for a missing row or table, 403 for a user', async () => {
    const created = await request(h.server).post('/api/v1/db/data/noco/pbase0000000001/Tasks').set(h.as(editor)).send({ Title: 'first', Email: 'a@b.io' });
    expect(created.status).toBe(200);
    const res = await request(h.server).get(`/internal/tables/mtasks00000000/records/${created.body.Id}`).set(asService());
    expect(res.status).toBe(200);
    expect(res.body.record).toMatchObject({ Id: created.body.Id, Title: 'first', Email: 'a@b.io' });

    const missing = await request(h.server).get('/internal/tables/mtasks00000000/records/999999').set(asService());
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_RECORD_NOT_FOUND');
    const noTable = await request(h.server).get('/internal/tables/mnothere000000/records/1').set(asService());
    expect(noTable.status).toBe(404);
    expect(noTable.body.error).toBe('ERR_TABLE_NOT_FOUND');
    const asUser = await request(h.server).get(`/internal/tables/mtasks00000000/records/${created.body.Id}`).set(h.as(editor));
    expect(asUser.status).toBe(403);
  });
});
