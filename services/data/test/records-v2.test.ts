import request from 'supertest';
import { metaInternal } from '@tabula/contracts';
import { describeWithBackend } from '@tabula/testing';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { mysqlVariant, sourceVariants, type SourceVariant } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const viewer = { id: 'usviewer0000001', email: 'view@example.com' };
const stranger = { id: 'usstranger00001', email: 'stranger@example.com' };
const BASE = 'pbase0000000001';
const R = '/api/v2/tables/mtasks00000000/records';

/**
 * NocoDB's v2 records API over the v1 use cases: the table by id, the view by
 * `viewId`, writes taking one record or an array and answering keys (the
 * answers NocoDB 0.301.3 gave to the same requests, recorded in the comments).
 */
for (const variant of [sourceVariants[0], sourceVariants[2]]) describe(`v2 records on the ${variant.name}`, () => v2Suite(variant));
describeWithBackend('mysql', 'v2 records on an external MariaDB', () => v2Suite(mysqlVariant() as SourceVariant));

function v2Suite(variant: SourceVariant): void {
  let h: DataHarness;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: unknown, who = editor) => {
    const req = request(h.server)[method](path).set(h.as(who));
    return body === undefined ? req : req.send(body as object);
  };
  beforeAll(async () => {
    h = await startDataHarness();
    h.apis.tables.set('tasks', await variant.setup(h.database.url));
    h.apis.roles.set(`${BASE}:${editor.id}`, 'editor');
    h.apis.roles.set(`${BASE}:${viewer.id}`, 'viewer');
  });
  afterAll(async () => { await h?.stop(); await variant.teardown?.(); });

  it('creates one record (its key) or several (their keys), as NocoDB answers', async () => {
    // NocoDB: POST {..} → 200 {"Id":1}; POST [{..},{..}] → 200 [{"Id":2},{"Id":3}]; POST [] → 200 [].
    const one = await call('post', R, { Title: 'a', Count: 1 });
    expect([one.status, one.body]).toEqual([200, { Id: 1 }]);
    const many = await call('post', R, [{ Title: 'b', Count: 2, Done: true }, { Title: 'c', Count: 3, Done: true }]);
    expect([many.status, many.body]).toEqual([200, [{ Id: 2 }, { Id: 3 }]]);
    expect((await call('post', R, [])).body).toEqual([]);
    const bad = await call('post', R, [{ Title: 'd' }, { Count: 4 }]);
    expect([bad.status, bad.body.error]).toEqual([422, 'ERR_REQUIRED_FIELD_MISSING']);
    expect((await call('get', `${R}/count`)).body).toEqual({ count: 3 });
  });

  it('lists with where, sort, fields, limit and offset, and pages like v1', async () => {
    // NocoDB: ?limit=1&offset=1&where=(Qty,gt,0)&sort=-Qty&fields=Title,Qty → page 2 of size 1 (v1's rule keeps the key).
    const page = await call('get', `${R}?where=(Count,gt,0)&sort=-Count&fields=Title,Count&limit=1&offset=1`);
    expect(page.status).toBe(200);
    expect(page.body.list).toEqual([{ Id: 2, Title: 'b', Count: 2 }]);
    expect(page.body.pageInfo).toEqual({ totalRows: 3, page: 2, pageSize: 1, isFirstPage: false, isLastPage: false });
    const v1 = await call('get', `/api/v1/db/data/noco/${BASE}/Tasks?sort=Title`);
    expect((await call('get', `${R}?sort=Title`)).body).toEqual(v1.body);
    expect((await call('get', `${R}/count?where=(Count,gt,1)`)).body).toEqual({ count: 2 });
  });

  it('reads through a view by viewId: its filters, sorts and visible fields; another table\'s view is missing', async () => {
    const view = await call('get', `${R}?viewId=vwdone00000000`);
    expect(view.body.list.map((r: { Title: string }) => r.Title)).toEqual(['c', 'b']);
    expect(view.body.list[0]).not.toHaveProperty('Email');
    expect((await call('get', `${R}/count?viewId=vwdone00000000`)).body).toEqual({ count: 2 });
    for (const path of [`${R}?viewId=vwother0000000`, `${R}/count?viewId=vwother0000000`]) {
      const res = await call('get', path);
      expect([res.status, res.body.error]).toEqual([404, 'ERR_VIEW_NOT_FOUND']);
    }
  });

  it('reads one record, with fields; a missing one is 404 ERR_RECORD_NOT_FOUND', async () => {
    const full = await call('get', `${R}/1`);
    expect(full.body).toEqual((await call('get', `/api/v1/db/data/noco/${BASE}/Tasks/1`)).body);
    expect((await call('get', `${R}/1?fields=Title`)).body).toEqual({ Id: 1, Title: 'a' });
    // NocoDB: 404 {"error":"ERR_RECORD_NOT_FOUND","message":"Record '999' not found"}
    const missing = await call('get', `${R}/999`);
    expect([missing.status, missing.body]).toEqual([404, expect.objectContaining({ error: 'ERR_RECORD_NOT_FOUND', message: "Record '999' not found" })]);
  });

  it('updates by the keys in the body: one object or an array, all or nothing', async () => {
    // NocoDB: PATCH {"Id":1,..} → {"Id":1}; PATCH [{"Id":1},{"Id":2}] → [{"Id":1},{"Id":2}]; a missing key → 404, nothing written.
    expect((await call('patch', R, { Id: 1, Title: 'a2' })).body).toEqual({ Id: 1 });
    expect((await call('patch', R, [{ Id: 1, Title: 'a3' }, { Id: 2, Count: 20 }])).body).toEqual([{ Id: 1 }, { Id: 2 }]);
    const missing = await call('patch', R, [{ Id: 1, Title: 'never' }, { Id: 99, Title: 'x' }]);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await call('get', `${R}/1?fields=Title`)).body.Title).toBe('a3');
    expect((await call('get', `${R}/2?fields=Count`)).body.Count).toBe(20);
    const unkeyed = await call('patch', R, [{ Title: 'x' }]);
    expect([unkeyed.status, unkeyed.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    expect((await call('patch', R, [])).body).toEqual([]);
  });

  it('deletes by the keys in the body: a missing one is 404 and nothing is deleted', async () => {
    // NocoDB: DELETE [{"Id":4},{"Id":99}] → 404 Record '99' not found, 4 kept; DELETE {"Id":3} → {"Id":3}; DELETE [] → [].
    const extra = (await call('post', R, { Title: 'e' })).body.Id;
    const missing = await call('delete', R, [{ Id: extra }, { Id: 99 }]);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await call('get', `${R}/${extra}`)).status).toBe(200);
    const unkeyed = await call('delete', R, [{ Title: 'x' }]);
    expect([unkeyed.status, unkeyed.body.error]).toEqual([404, 'ERR_RECORD_NOT_FOUND']);
    expect((await call('delete', R, { Id: extra })).body).toEqual({ Id: extra });
    expect((await call('delete', R, [{ Id: 3 }])).body).toEqual([{ Id: 3 }]);
    expect((await call('delete', R, [])).body).toEqual([]);
    expect((await call('get', `${R}/count`)).body).toEqual({ count: 2 });
  });

  it('announces v2 writes as v1 announces them (records events)', async () => {
    const before = h.events.length;
    const inserts = () => h.events.slice(before).map((e) => e.type).filter((t) => t === 'records.after.insert');
    await call('post', R, [{ Title: 'ev1' }, { Title: 'ev2' }]);
    for (let i = 0; i < 100 && !inserts().length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(inserts()).toEqual(['records.after.insert']);
  });

  it('answers a table the caller may not see, and one that does not exist, alike; viewers may not write', async () => {
    // NocoDB: GET /api/v2/tables/mmissing0000000/records → 404 {"error":"ERR_TABLE_NOT_FOUND","message":"Table 'mmissing0000000' not found"}
    for (const [method, path, body] of [['get', R], ['get', `${R}/1`], ['get', `${R}/count`], ['post', R, { Title: 'x' }], ['delete', R, [{ Id: 1 }]]] as const) {
      const hidden = await call(method, path, body, stranger);
      const missing = await call(method, path.replace('mtasks00000000', 'mmissing0000000'), body, editor);
      expect([path, hidden.status, hidden.body]).toEqual([path, 404, expect.objectContaining({ error: 'ERR_TABLE_NOT_FOUND', message: "Table 'mtasks00000000' not found" })]);
      expect([path, missing.status, missing.body.error]).toEqual([path, 404, 'ERR_TABLE_NOT_FOUND']);
    }
    expect((await call('get', R, undefined, viewer)).status).toBe(200);
    for (const [method, body] of [['post', { Title: 'x' }], ['patch', [{ Id: 1, Title: 'x' }]], ['delete', [{ Id: 1 }]]] as const) {
      expect([method, (await call(method, R, body, viewer)).status]).toEqual([method, 403]);
    }
    expect((await request(h.server).get(R)).status).toBe(401);
  });

  it('finds the table by id once: later requests are served from the cache', async () => {
    const byId = () => h.apis.calls.get(metaInternal.tableContext.id) ?? 0;
    h.ports.tables.cache.clear();
    const cold = byId();
    expect((await call('get', R)).status).toBe(200);
    expect(byId()).toBe(cold + 1);
    expect((await call('get', `${R}/1`)).status).toBe(200);
    expect((await call('post', R, { Title: 'cached' })).status).toBe(200);
    expect(byId()).toBe(cold + 1);
  });
}
