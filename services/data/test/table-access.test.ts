import request from 'supertest';
import { signIdentity, servicePrincipal } from '@tabula/auth';
import { authInternal, dataEndpoints, metaInternal, metaInternalEndpoints, recordsOfTable } from '@tabula/contracts';
import { startDataHarness, type DataHarness } from './data-app.harness';
import { sourceVariants } from './source-variants';

const editor = { id: 'useditor0000001', email: 'ed@example.com' };
const viewer = { id: 'usviewer0000001', email: 'view@example.com' };
const stranger = { id: 'usstranger00001', email: 'stranger@example.com' };
const BASE = 'pbase0000000001';
const T = `/api/v1/db/data/noco/${BASE}/Tasks`;
const B = `/api/v1/db/data/bulk/noco/${BASE}/Tasks`;
const hidden = (ref = BASE) => ({ error: 'ERR_BASE_NOT_FOUND', msg: `Base '${ref}' not found` });

/**
 * Who may call the records, bulk and nested routes: the permission each data
 * contract declares (data.read / data.write on the table its path names),
 * checked by the guard before the use case runs, with the answers the data
 * service always gave (a caller without a role sees a missing base; a weaker
 * role 403; the view, the link column and the bulk size checked where they
 * always were), and the guard's table lookup being the only one.
 */
describe('data routes: the declared permission on the named table', () => {
  let h: DataHarness;
  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, who?: typeof editor, body?: unknown) => {
    const req = request(h.server)[method](path);
    if (who) req.set(h.as(who));
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    h = await startDataHarness({ SVC_BULK_MAX_RECORDS: '3' });
    h.apis.tables.set('tasks', await sourceVariants[0].setup(h.database.url));
    h.apis.roles.set(`${BASE}:${editor.id}`, 'editor');
    h.apis.roles.set(`${BASE}:${viewer.id}`, 'viewer');
    expect((await call('post', T, editor, { Title: 'seed' })).status).toBe(200);
  });
  afterAll(async () => { await h?.stop(); });

  it('declares data.read (GET and the v2 bulk reads) or data.write on the named table on every public data contract (v1 and v3: tableRef, v2: table id)', () => {
    const user = Object.values(dataEndpoints).filter((e) => e.access === 'user');
    // v1 26 (+ 4 group-by, + 2 grouped data lists), v2 9 (+ aggregate, 3 bulk reads, move, a link cell's copy/paste/deleteAll), v3 9.
    expect(user.length).toBe(26 + 4 + 2 + 9 + 1 + 5 + 9);
    const reads = (e: { method: string; path: string }) => e.method === 'GET' || /\/bulk\/(dataList|group|aggregate)$/.test(e.path);
    for (const e of user) {
      const via = e.path.startsWith('/api/v2/') ? 'table' : 'tableRef';
      expect([e.id, e.auth.permission, e.auth.scope?.via]).toEqual([e.id, reads(e) ? 'data.read' : 'data.write', via]);
    }
    const id = recordsOfTable.read.auth.scope!.id({ params: { orgs: 'noco', baseName: 'b', tableName: 't', rowId: '1' }, query: undefined, body: undefined });
    expect(id).toEqual({ baseName: 'b', tableName: 't', viewName: undefined });
  });

  it('answers a caller with no role in the base as if the base did not exist, by id or by title', async () => {
    for (const [method, path, body] of [
      ['get', T], ['get', `${T}/1`], ['get', `${T}/views/Done only`], ['get', `${T}/views/no-such-view`], ['post', T, { Title: 'x' }],
      ['patch', `${T}/1`, { Title: 'x' }], ['delete', `${T}/1`], ['post', B, [{ Title: 'x' }]], ['delete', `${B}/all?all=true`],
      ['get', `${T}/1/mm/Links`], ['post', `${T}/1/mm/Links/1`],
    ] as const) {
      const res = await call(method, path, stranger, body);
      expect([path, res.status, res.body]).toEqual([path, 404, expect.objectContaining(hidden())]);
    }
    const byTitle = await call('get', '/api/v1/db/data/noco/Base One/Tasks', stranger);
    expect([byTitle.status, byTitle.body]).toEqual([404, expect.objectContaining(hidden('Base One'))]);
    const missing = await call('get', '/api/v1/db/data/noco/pmissing0000000/Tasks', editor);
    expect([missing.status, missing.body.error]).toEqual([404, 'ERR_BASE_NOT_FOUND']);
  });

  it('lets a viewer read and refuses its writes with 403, before the view or link column is looked up', async () => {
    expect((await call('get', T, viewer)).status).toBe(200);
    expect((await call('get', `${T}/views/Done only/count`, viewer)).status).toBe(200);
    for (const [method, path, body] of [
      ['post', T, { Title: 'x' }], ['patch', `${T}/1`, { Title: 'x' }], ['delete', `${T}/1`], ['post', B, [{ Title: 'x' }]],
      ['patch', `${B}/all?all=true`, { Title: 'x' }], ['post', `${T}/views/no-such-view`, { Title: 'x' }], ['post', `${T}/1/mm/NoColumn/1`],
    ] as const) {
      const res = await call(method, path, viewer, body);
      expect([path, res.status]).toEqual([path, 403]);
    }
    // Allowed to read: then the view and the link column answer for themselves.
    const view = await call('get', `${T}/views/no-such-view`, viewer);
    expect([view.status, view.body.error]).toEqual([404, 'ERR_VIEW_NOT_FOUND']);
    const column = await call('get', `${T}/1/mm/NoColumn`, viewer);
    expect([column.status, column.body.error]).toEqual([404, 'ERR_COLUMN_NOT_FOUND']);
    const editorView = await call('post', `${T}/views/no-such-view`, editor, { Title: 'x' });
    expect([editorView.status, editorView.body.error]).toEqual([404, 'ERR_VIEW_NOT_FOUND']);
  });

  it('checks a bulk body (array, SVC_BULK_MAX_RECORDS) before the permission, as it always did', async () => {
    for (const who of [viewer, stranger]) {
      const over = await call('post', B, who, [{}, {}, {}, {}]);
      expect([over.status, over.body.error]).toEqual([422, 'ERR_MAX_PAYLOAD_LIMIT_EXCEEDED']);
      const notArray = await call('patch', B, who, { Title: 'x' });
      expect([notArray.status, notArray.body.error]).toEqual([400, 'ERR_INVALID_REQUEST_BODY']);
    }
  });

  it('refuses other services (403) and anonymous callers (401)', async () => {
    const service = { 'x-tabula-identity': signIdentity(servicePrincipal('hooks'), 'internal-secret-for-the-data-service-tests-0123456789') };
    expect((await request(h.server).get(T).set(service)).status).toBe(403);
    expect((await call('get', T)).status).toBe(401);
  });

  it('resolves the table once per request: the guard\'s lookup is the one the use case serves from', async () => {
    const counts = () => [metaInternal.tableContextByRef.id, metaInternalEndpoints.baseCandidates.id, authInternal.roleOf.id].map((id) => h.apis.calls.get(id) ?? 0);
    const cold = async (work: () => Promise<unknown>) => {
      h.ports.tables.cache.clear();
      h.ports.tables.baseRefs.clear();
      h.ports.baseAccess.invalidate(BASE);
      const before = counts();
      await work();
      return counts().map((n, i) => n - before[i]);
    };
    // One table context, one base lookup, one role lookup, cold; none warm.
    expect(await cold(async () => expect((await call('get', T, editor)).status).toBe(200))).toEqual([1, 1, 1]);
    expect(await cold(async () => expect((await call('get', `${T}/1`, editor)).status).toBe(200))).toEqual([1, 1, 1]);
    expect(await cold(async () => expect((await call('post', T, editor, { Title: 'once' })).status).toBe(200))).toEqual([1, 1, 1]);
    const before = counts();
    expect((await call('get', T, editor)).status).toBe(200);
    expect((await call('post', T, editor, { Title: 'warm' })).status).toBe(200);
    expect(counts()).toEqual(before);
  });
});
