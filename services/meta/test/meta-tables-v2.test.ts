import { startMetaHarness, type MetaHarness } from './meta-app.harness';

let h: MetaHarness;
let baseId: string;
beforeAll(async () => {
  h = await startMetaHarness();
  baseId = (await h.http.post('/api/v1/db/meta/projects').set(h.superUser).send({ title: 'V2 tables' }).expect(200)).body.id;
  await h.http.post(`/api/v1/db/meta/projects/${baseId}/tables`).set(h.superUser).send({ title: 'Orders' }).expect(200);
});
afterAll(async () => { await h.stop(); });

describe('GET /api/v2/meta/bases/{baseId}/tables (NocoDB v2, n8n table picker)', () => {
  it('answers the v1 list of the base, paged alike', async () => {
    const v1 = await h.http.get(`/api/v1/db/meta/projects/${baseId}/tables`).set(h.superUser).expect(200);
    const v2 = await h.http.get(`/api/v2/meta/bases/${baseId}/tables`).set(h.superUser).expect(200);
    expect(v2.body).toEqual(v1.body);
    expect(v2.body.list.map((t: { title: string }) => t.title)).toEqual(['Orders']);
  });

  it('another user sees the base exactly as a missing one; no credentials is 401', async () => {
    const stranger = h.as({ id: 'us00000stranger1' });
    const other = await h.http.get(`/api/v2/meta/bases/${baseId}/tables`).set(stranger);
    const missing = await h.http.get('/api/v2/meta/bases/pmissing0000000/tables').set(stranger);
    expect([other.status, other.body.error]).toEqual([404, 'ERR_BASE_NOT_FOUND']);
    expect([missing.status, missing.body.error]).toEqual([other.status, other.body.error]);
    expect((await h.http.get(`/api/v2/meta/bases/${baseId}/tables`)).status).toBe(401);
  });
});
