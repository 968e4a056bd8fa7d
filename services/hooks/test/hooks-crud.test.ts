import request from 'supertest';
import { startHooksHarness, type HooksHarness } from './hooks-app.harness';

let h: HooksHarness;
const table = { id: 'mhookstable00001', baseId: 'phooksbase000001' };
const other = { id: 'mhookstable00002', baseId: 'phooksbase000002' };
const owner = { id: 'ushookowner00001', email: 'owner@example.com' };
const viewer = { id: 'ushookviewer0001', email: 'viewer@example.com' };
const stranger = { id: 'ushookstranger01', email: 'stranger@example.com' };
const M = '/api/v1/db/meta';

const hookBody = (title: string) => ({
  title, event: 'after', operation: 'insert', version: 'v2',
  notification: { type: 'URL', payload: { method: 'POST', path: 'https://example.com/hook' } },
});

beforeAll(async () => {
  h = await startHooksHarness();
  h.world.tables.set(table.id, table);
  h.world.tables.set(other.id, other);
  h.world.roles.set(`${table.baseId}:${owner.id}`, 'owner');
  h.world.roles.set(`${table.baseId}:${viewer.id}`, 'viewer');
  h.world.roles.set(`${other.baseId}:${stranger.id}`, 'owner');
}, 60_000);
afterAll(async () => { await h?.stop(); });

describe('hooks service alone (hook and hook-filter repositories)', () => {
  it('creates, lists, changes and deletes a hook; the secret is shown to editors only', async () => {
    const api = request(h.app.callback());
    const created = await api.post(`${M}/tables/${table.id}/hooks`).set(h.as(owner)).send(hookBody('first'));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: 'first', fk_model_id: table.id, event: 'after', operation: 'insert', active: true });
    expect(created.body.secret).toMatch(/^whsec_/);

    const listed = await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(owner));
    expect(listed.status).toBe(200);
    expect(listed.body.list.map((x: { id: string }) => x.id)).toEqual([created.body.id]);
    expect(listed.body.pageInfo).toMatchObject({ totalRows: 1 });

    const seen = await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(viewer));
    expect(seen.status).toBe(200);
    expect(seen.body.list[0].secret).not.toBe(created.body.secret);

    const patched = await api.patch(`${M}/hooks/${created.body.id}`).set(h.as(owner)).send({ title: 'renamed', active: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, title: 'renamed', active: false });

    const removed = await api.delete(`${M}/hooks/${created.body.id}`).set(h.as(owner));
    expect(removed.status).toBe(200);
    expect((await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(owner))).body.list).toEqual([]);
    expect((await api.patch(`${M}/hooks/${created.body.id}`).set(h.as(owner)).send({ title: 'x' })).status).toBe(404);
  });

  it('answers another tenant\'s table and hook exactly like missing ones', async () => {
    const api = request(h.app.callback());
    const hook = await api.post(`${M}/tables/${table.id}/hooks`).set(h.as(owner)).send(hookBody('private'));
    expect(hook.status).toBe(200);
    const theirs = await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(stranger));
    const missing = await api.get(`${M}/tables/mnosuchtable0001/hooks`).set(h.as(stranger));
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(theirs.body.error).toBe(missing.body.error);
    const hookTheirs = await api.patch(`${M}/hooks/${hook.body.id}`).set(h.as(stranger)).send({ title: 'x' });
    const hookMissing = await api.patch(`${M}/hooks/hknosuchhook0001`).set(h.as(stranger)).send({ title: 'x' });
    expect(hookTheirs.status).toBe(404);
    expect(hookMissing.status).toBe(404);
    expect(hookTheirs.body.error).toBe('ERR_HOOK_NOT_FOUND');
    expect(hookMissing.body.error).toBe('ERR_HOOK_NOT_FOUND');
  });

  it('stores a hook\'s filters as a tree and lists them flat', async () => {
    const api = request(h.app.callback());
    const hook = await api.post(`${M}/tables/${table.id}/hooks`).set(h.as(owner)).send({ ...hookBody('filtered'), condition: true });
    const group = await api.post(`${M}/hooks/${hook.body.id}/filters`).set(h.as(owner)).send({ is_group: true, logical_op: 'or' });
    expect(group.status).toBe(200);
    const leaf = await api.post(`${M}/hooks/${hook.body.id}/filters`).set(h.as(owner))
      .send({ fk_parent_id: group.body.id, fk_column_id: `${table.id}_c2`, comparison_op: 'eq', value: 'x', logical_op: 'and' });
    expect(leaf.status).toBe(200);
    const listed = await api.get(`${M}/hooks/${hook.body.id}/filters`).set(h.as(owner));
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.list.map((f: { id: string }) => [f.id, f]));
    expect(byId.get(group.body.id)).toMatchObject({ is_group: true, logical_op: 'or' });
    expect(byId.get(leaf.body.id)).toMatchObject({ fk_parent_id: group.body.id, comparison_op: 'eq', value: 'x' });
    const bad = await api.post(`${M}/hooks/${hook.body.id}/filters`).set(h.as(owner)).send({ fk_column_id: 'cnosuchcolumn001', comparison_op: 'eq', value: 1 });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
});
