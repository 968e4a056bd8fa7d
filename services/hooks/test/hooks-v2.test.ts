import request from 'supertest';
import { hooksEndpoints } from '@tabula/contracts';
import { startHooksHarness, type HooksHarness } from './hooks-app.harness';

/**
 * NocoDB's v2 hook paths (`/api/v2/meta/tables/{tableId}/hooks`, `/api/v2/meta/hooks/{hookId}`…):
 * NocoDB 0.301.3 serves them from its v1 handlers, and so does Tabula (aliases
 * of the v1 contracts: same permission, scope, schemas and use case).
 */
let h: HooksHarness;
const table = { id: 'mhookstable00001', baseId: 'phooksbase000001' };
const owner = { id: 'ushookowner00001', email: 'owner@example.com' };
const editor = { id: 'ushookeditor0001', email: 'editor@example.com' };
const stranger = { id: 'ushookstranger01', email: 'stranger@example.com' };
const V1 = '/api/v1/db/meta';
const V2 = '/api/v2/meta';
const hookBody = (title: string) => ({
  title, event: 'after', operation: 'insert', version: 'v2',
  notification: { type: 'URL', payload: { method: 'POST', path: 'https://example.com/hook' } },
});

beforeAll(async () => {
  h = await startHooksHarness();
  h.world.tables.set(table.id, table);
  h.world.roles.set(`${table.baseId}:${owner.id}`, 'owner');
  h.world.roles.set(`${table.baseId}:${editor.id}`, 'editor');
}, 60_000);
afterAll(async () => { await h?.stop(); });

describe('NocoDB v2 hook paths', () => {
  it('are aliases of the v1 hook contracts', () => {
    const aliases = Object.values(hooksEndpoints).filter((e) => e.sameAs);
    expect(aliases.map((e) => e.id).sort()).toEqual([
      'hookCreateV2', 'hookDeleteV2', 'hookFilterCreateV2', 'hookFilterListV2', 'hookListV2', 'hookLogListV2', 'hookSamplePayloadV2', 'hookTestV2', 'hookUpdateV2',
    ]);
    for (const e of aliases) expect([e.id, e.auth, e.method]).toEqual([e.id, hooksEndpoints[e.sameAs!].auth, hooksEndpoints[e.sameAs!].method]);
  });

  it('create, list, filters, logs, sample payload, update and delete through v2 answer as v1', async () => {
    const api = request(h.app.callback());
    const created = await api.post(`${V2}/tables/${table.id}/hooks`).set(h.as(owner)).send(hookBody('v2 hook'));
    expect([created.status, created.body.title]).toEqual([200, 'v2 hook']);
    const id = created.body.id;
    for (const [v2, v1] of [
      [`${V2}/tables/${table.id}/hooks`, `${V1}/tables/${table.id}/hooks`], [`${V2}/hooks/${id}/logs`, `${V1}/hooks/${id}/logs`],
      [`${V2}/tables/${table.id}/hooks/samplePayload/after/insert/v2`, `${V1}/tables/${table.id}/hooks/samplePayload/after/insert/v2`],
    ]) {
      const [a, b] = [await api.get(v2).set(h.as(owner)), await api.get(v1).set(h.as(owner))];
      // A sample payload's event id is new on every call.
      const same = (body: unknown) => JSON.stringify(body).replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<event id>"');
      expect([v2, a.status, same(a.body)]).toEqual([v2, 200, same(b.body)]);
    }
    const filter = await api.post(`${V2}/hooks/${id}/filters`).set(h.as(owner)).send({ fk_column_id: `${table.id}_c2`, comparison_op: 'eq', value: 'x' });
    expect(filter.status).toBe(200);
    expect((await api.get(`${V2}/hooks/${id}/filters`).set(h.as(owner))).body).toEqual((await api.get(`${V1}/hooks/${id}/filters`).set(h.as(owner))).body);
    expect((await api.patch(`${V2}/hooks/${id}`).set(h.as(owner)).send({ title: 'renamed' })).body.title).toBe('renamed');
    expect((await api.patch(`${V2}/hooks/${id}`).set(h.as(editor)).send({ title: 'no' })).status).toBe(403);
    expect((await api.get(`${V2}/tables/${table.id}/hooks`).set(h.as(stranger))).status).toBe(404);
    expect((await api.delete(`${V2}/hooks/${id}`).set(h.as(owner))).status).toBe(200);
    expect((await api.get(`${V2}/tables/${table.id}/hooks`).set(h.as(owner))).body.list).toEqual([]);
  });
});
