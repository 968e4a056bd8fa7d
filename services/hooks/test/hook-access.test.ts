import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { identityMiddleware } from '@tabula/auth';
import { dataInternal } from '@tabula/contracts';
import { appError, errorMiddleware, route } from '@tabula/http';
import { INTERNAL, startHooksHarness, type HooksHarness } from './hooks-app.harness';

/**
 * The permissions the hooks contracts declare, through the real guard: reads
 * need `base.read`, changes and logs `hook.write`, the manual trigger
 * `data.write`, each on the path's table or hook; a caller with no role in
 * the base (another tenant, another base's token) sees a missing id.
 */
let h: HooksHarness;
const table = { id: 'maccesstable0001', baseId: 'paccessbase00001' };
const M = '/api/v1/db/meta';
const ROLES = ['owner', 'creator', 'editor', 'commenter', 'viewer'] as const;
const user = (name: string) => ({ id: `us${name.padEnd(14, '0')}`, email: `${name}@example.com` });
const stranger = user('stranger');
let hookId = '';
const triggered: string[] = [];

const hookBody = (title: string) => ({
  title, event: 'after', operation: 'insert', version: 'v2',
  notification: { type: 'URL', payload: { method: 'POST', path: 'https://example.com/hook', headers: [{ name: 'Authorization', value: 'Bearer s3cret' }] } },
});

/** data's record read, as the manual trigger calls it (records '1' and up exist). */
function fakeData(): ReturnType<Koa['callback']> {
  const router = new Router();
  route(router, dataInternal.readRecord, (ctx) => {
    if (ctx.input.params.recordId === '0') throw appError('ERR_RECORD_NOT_FOUND', 'Record not found');
    triggered.push(ctx.input.params.recordId);
    return { record: { Id: Number(ctx.input.params.recordId), Title: 'row' } };
  });
  const koa = new Koa();
  koa.use(errorMiddleware({ error: () => undefined, warn: () => undefined }));
  koa.use(identityMiddleware(INTERNAL));
  koa.use(router.routes());
  return koa.callback();
}

beforeAll(async () => {
  h = await startHooksHarness();
  h.world.tables.set(table.id, table);
  for (const role of ROLES) h.world.roles.set(`${table.baseId}:${user(role).id}`, role);
  h.world.client.register('data', fakeData());
  const created = await request(h.app.callback()).post(`${M}/tables/${table.id}/hooks`).set(h.as(user('owner'))).send(hookBody('guarded'));
  expect(created.status).toBe(200);
  hookId = created.body.id;
}, 60_000);
afterAll(async () => { await h?.stop(); });

const said = (res: request.Response) => `${res.status} ${res.body?.error ?? ''}`.trim();

describe('hooks permissions (declared on the contracts)', () => {
  it('each role gets what the permission of each endpoint says', async () => {
    const api = request(h.app.callback());
    const calls: Array<[string, (who: ReturnType<typeof user>) => Promise<request.Response>, readonly string[]]> = [
      ['hookList', (u) => api.get(`${M}/tables/${table.id}/hooks`).set(h.as(u)), ROLES],
      ['hookSamplePayload', (u) => api.get(`${M}/tables/${table.id}/hooks/samplePayload/after/insert/v2`).set(h.as(u)), ROLES],
      ['hookFilterList', (u) => api.get(`${M}/hooks/${hookId}/filters`).set(h.as(u)), ROLES],
      ['hookLogList', (u) => api.get(`${M}/hooks/${hookId}/logs`).set(h.as(u)), ['owner', 'creator']],
      ['hookUpdate', (u) => api.patch(`${M}/hooks/${hookId}`).set(h.as(u)).send({ description: u.id }), ['owner', 'creator']],
      ['hookCreate', (u) => api.post(`${M}/tables/${table.id}/hooks`).set(h.as(u)).send({ ...hookBody(u.id), active: false }), ['owner', 'creator']],
      ['hookTrigger', (u) => api.post(`/api/v2/meta/hooks/${hookId}/trigger/1`).set(h.as(u)), ['owner', 'creator', 'editor']],
    ];
    const wrong: string[] = [];
    for (const [id, call, allowed] of calls) {
      for (const role of ROLES) {
        const res = await call(user(role));
        const want = allowed.includes(role) ? '200' : '403 ERR_FORBIDDEN';
        if (said(res) !== want) wrong.push(`${id} as ${role}: ${said(res)}, expected ${want}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(triggered).toEqual(['1', '1', '1']);
  });

  it('secrets in a hook\'s notification are shown to those who may edit hooks only', async () => {
    const api = request(h.app.callback());
    const headerOf = async (role: string) => (await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(user(role)))).body.list
      .find((x: { id: string }) => x.id === hookId).notification.payload.headers[0].value;
    expect(await headerOf('creator')).toBe('Bearer s3cret');
    expect(await headerOf('editor')).toBe('********');
  });

  it('a stranger and another base\'s token see the table and the hook as missing', async () => {
    const api = request(h.app.callback());
    const otherToken = { ...user('owner'), via: 'api-token' as const, tokenId: 'tk1', baseScope: 'pelsewhere000001' };
    for (const who of [stranger, otherToken]) {
      expect(said(await api.get(`${M}/tables/${table.id}/hooks`).set(h.as(who)))).toBe('404 ERR_TABLE_NOT_FOUND');
      expect(said(await api.post(`${M}/tables/${table.id}/hooks/test`).set(h.as(who)).send({ hook: hookBody('t') }))).toBe('404 ERR_TABLE_NOT_FOUND');
      expect(said(await api.get(`${M}/hooks/${hookId}/logs`).set(h.as(who)))).toBe('404 ERR_HOOK_NOT_FOUND');
      expect(said(await api.post(`/api/v2/meta/hooks/${hookId}/trigger/1`).set(h.as(who)))).toBe('404 ERR_HOOK_NOT_FOUND');
    }
    expect(said(await api.get(`${M}/tables/mnosuchtable0001/hooks`).set(h.as(stranger)))).toBe('404 ERR_TABLE_NOT_FOUND');
    expect(said(await api.delete(`${M}/hooks/hknosuchhook0001`).set(h.as(user('owner'))))).toBe('404 ERR_HOOK_NOT_FOUND');
  });

  it('the manual trigger reads the record through data (404 when missing) and schedules a delivery', async () => {
    const api = request(h.app.callback());
    expect(said(await api.post(`/api/v2/meta/hooks/${hookId}/trigger/0`).set(h.as(user('editor'))))).toBe('404 ERR_RECORD_NOT_FOUND');
    const res = await api.post(`/api/v2/meta/hooks/${hookId}/trigger/7`).set(h.as(user('editor')));
    expect(res.body).toEqual({ msg: 'The hook has been triggered', delivery_id: expect.any(String) });
    const delivery = await h.ports.db.withSchema('hooks').from('deliveries').where({ id: res.body.delivery_id }).first();
    expect(delivery).toMatchObject({ hook_id: hookId, event: 'manual', operation: 'trigger' });
  });
});
