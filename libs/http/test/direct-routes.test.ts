import Router from '@koa/router';
import inject from 'light-my-request';
import pino from 'pino';
import { AppError, createServiceApp, directRoutes } from '../src';

/**
 * directRoutes answers what the app answers, whichever route would have run:
 * the same requests go to `app.callback()` and to the direct handler, and
 * status, headers and body must agree — including paths where an earlier,
 * non-hot route of another router or the same router matches first, trailing
 * slashes, other letter case, router middleware, wildcard templates, HEAD and
 * 405s. The handler says which route answered in `x-route`, so the test also
 * shows which went direct.
 */
function build() {
  const served: string[] = [];
  const say = (name: string) => (ctx: { body: unknown; params: Record<string, string>; request: { body?: unknown }; state: Record<string, unknown> }) => {
    served.push(name);
    ctx.body = { name, params: ctx.params, body: ctx.request.body ?? null, requestId: ctx.state.requestId };
  };
  const first = new Router();
  first.get('findOne', '/t/:table/find-one', say('findOne'));
  first.get('files', '/files/*rest', say('files'));
  const hot = new Router();
  hot.get('count', '/t/:table/count', say('count'));
  hot.get('read', '/t/:table/:id', say('read'));
  hot.get('list', '/t/:table', say('list'));
  hot.post('create', '/t/:table', say('create'));
  hot.get('boom', '/t/:table/:id/boom', () => { throw new AppError(418, 'ERR_TEAPOT', 'I am a teapot'); });
  hot.get('readAgain', '/t/:table/:id', say('readAgain'));
  const guarded = new Router();
  guarded.use(async (ctx, next) => { ctx.set('x-guarded', 'yes'); await next(); });
  guarded.get('guardedRead', '/g/:id', say('guardedRead'));
  const app = createServiceApp({ name: 'test', logger: pino({ level: 'silent' }), routers: [first, hot, guarded], bodyLimit: 1024 });
  // Counts the requests that ran the app's own stack (a layer the direct chain does not have).
  const throughApp = { count: 0 };
  app.middleware.splice(1, 0, (_ctx, next) => { throughApp.count += 1; return next(); });
  const handler = directRoutes(app, new Set(['read', 'list', 'create', 'boom', 'guardedRead', 'readAgain', 'files']));
  return { app, handler, served, throughApp };
}

const requests: { method: 'GET' | 'POST' | 'HEAD' | 'PUT'; url: string; payload?: string; headers?: Record<string, string> }[] = [
  { method: 'GET', url: '/t/items/7' },
  { method: 'GET', url: '/t/items/7/' },
  { method: 'GET', url: '/T/Items/7' },
  { method: 'GET', url: '/t/items/%37?x=1' },
  { method: 'GET', url: '/t/items/find-one' },
  { method: 'GET', url: '/t/items/count' },
  { method: 'GET', url: '/t/items' },
  { method: 'GET', url: '/t/items?limit=2' },
  { method: 'GET', url: '/t/items/7/boom', headers: { 'x-request-id': 'abc-1' } },
  { method: 'GET', url: '/t/items/7/8/9' },
  { method: 'GET', url: '/t/' },
  { method: 'GET', url: '/g/1' },
  { method: 'GET', url: '/files/a/b/c' },
  { method: 'POST', url: '/t/items', payload: '{"a":1}', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/t/items', payload: '{"a":', headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/t/items', payload: JSON.stringify({ a: 'x'.repeat(2048) }), headers: { 'content-type': 'application/json' } },
  { method: 'POST', url: '/t/items/7' },
  { method: 'HEAD', url: '/t/items/7' },
  { method: 'PUT', url: '/t/items' },
];

describe('directRoutes', () => {
  const { app, handler, served, throughApp } = build();
  const viaApp = app.callback();

  it.each(requests)('$method $url: the same answer as the app, from the same route', async (r) => {
    served.length = 0;
    const a = await inject(viaApp, { ...r, headers: { 'x-request-id': 'fixed', ...r.headers } });
    const byApp = [...served];
    served.length = 0;
    const b = await inject(handler, { ...r, headers: { 'x-request-id': 'fixed', ...r.headers } });
    expect(served).toEqual(byApp);
    expect({ status: b.statusCode, headers: { ...b.headers, date: undefined }, body: b.payload })
      .toEqual({ status: a.statusCode, headers: { ...a.headers, date: undefined }, body: a.payload });
  });

  it('serves the hot routes directly and everything else through the app', async () => {
    const wentDirect = async (method: 'GET' | 'POST' | 'HEAD', url: string) => {
      const before = throughApp.count;
      await inject(handler, { method, url, ...(method === 'POST' ? { payload: '{}', headers: { 'content-type': 'application/json' } } : {}) });
      return throughApp.count === before;
    };
    expect(await wentDirect('GET', '/t/items/7')).toBe(true);
    expect(await wentDirect('GET', '/t/items/7/')).toBe(true);
    expect(await wentDirect('GET', '/t/items')).toBe(true);
    expect(await wentDirect('POST', '/t/items')).toBe(true);
    expect(await wentDirect('GET', '/files/a/b')).toBe(true);
    // An earlier route that is not hot, a router with middleware of its own, HEAD, a path no route has.
    expect(await wentDirect('GET', '/t/items/find-one')).toBe(false);
    expect(await wentDirect('GET', '/t/items/count')).toBe(false);
    expect(await wentDirect('GET', '/g/1')).toBe(false);
    expect(await wentDirect('HEAD', '/t/items/7')).toBe(false);
    expect(await wentDirect('GET', '/nowhere')).toBe(false);
  });
});
