import Koa from 'koa';
import request from 'supertest';
import { z } from 'zod';
import { ACCOUNT, defineEndpoint, SERVICES, SESSION, type principalSchema } from '@tabula/contracts';
import { AppError, callerKindOf, errorMiddleware, guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';

type Principal = z.infer<typeof principalSchema>;

const params = z.object({ noteId: z.string().min(1) });
/** A user's own note, managed with a session only (as org API tokens are). */
const noteDelete = defineEndpoint({
  id: 'noteDelete', method: 'DELETE', path: '/api/v1/notes/{noteId}', service: 'comments',
  auth: { callers: SESSION, permission: 'self', scope: { via: 'comment', id: (i) => i.params.noteId } },
  summary: 'Delete a note', tags: ['Notes'], params, response: z.object({ ok: z.boolean() }),
});
/** The same with the account's callers: a refused base token sees the note as missing. */
const noteGet = defineEndpoint({
  id: 'noteGetOwn', method: 'GET', path: '/api/v1/notes/{noteId}', service: 'comments',
  auth: { callers: ACCOUNT, permission: 'self', scope: { via: 'comment', id: (i) => i.params.noteId } },
  summary: 'Read a note', tags: ['Notes'], params, response: z.object({ ok: z.boolean() }),
});

/** A note only org API tokens may read (one caller kind, not the session): a refused session waits for the input. */
const noteTokenOnly = defineEndpoint({
  id: 'noteTokenOnly', method: 'GET', path: '/api/v1/token-notes/{noteId}', service: 'comments',
  auth: { callers: ['orgToken'] as const, permission: 'self', scope: { via: 'comment', id: (i) => i.params.noteId } },
  summary: 'Read a note with an org token', tags: ['Notes'], params, response: z.object({ ok: z.boolean() }),
});

/** An internal endpoint (services only). */
const noteInternal = defineEndpoint({
  id: 'noteInternal', method: 'GET', path: '/internal/notes/{noteId}', service: 'comments', auth: { callers: SERVICES },
  summary: 'Read a note (internal)', tags: ['Notes'], params, response: z.object({ ok: z.boolean() }),
});

const missing = (id: unknown) => new AppError(404, 'ERR_NOTE_NOT_FOUND', `Note '${String(id)}' not found`);
/** Admits everyone to every note: only the caller-kind guard is under test. */
const authorizer: Authorizer = {
  check: () => undefined,
  refuse: async (endpoint, _principal, input) => missing(endpoint.auth.scope!.id(input as never)),
  authorize: async (_endpoint, principal) => ({ principal, value: undefined }),
};

function app(principal: Principal | undefined): Koa {
  const router = guardedRouter(authorizer);
  route(router, noteDelete, () => ({ ok: true }));
  // the handler reads the scope the guard established
  route(router, noteGet, (ctx) => ({ ok: scopeOf(ctx).principal !== undefined }));
  route(router, noteTokenOnly, () => ({ ok: true }));
  route(router, noteInternal, () => ({ ok: true }));
  const koa = new Koa();
  koa.use(errorMiddleware({ error: () => undefined, warn: () => undefined } as never));
  koa.use(async (ctx, next) => { ctx.state.principal = principal; await next(); });
  koa.use(router.routes());
  return koa;
}

const user = { kind: 'user' as const, id: 'us1', roles: [] as string[] };

describe('caller kinds of a scoped endpoint', () => {
  it('a session-only endpoint refuses API tokens with 401 ERR_API_TOKEN_NOT_ALLOWED, whatever the id', async () => {
    for (const principal of [{ ...user, via: 'api-token', tokenId: 't1' }, { ...user, via: 'api-token', tokenId: 't2', baseScope: 'p1' }] as Principal[]) {
      const res = await request(app(principal).callback()).delete('/api/v1/notes/n1');
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: 'ERR_API_TOKEN_NOT_ALLOWED' });
    }
    expect((await request(app({ ...user, via: 'jwt' as const }).callback()).delete('/api/v1/notes/n1')).status).toBe(200);
  });

  it('an account endpoint answers a refused base token as a missing resource', async () => {
    const res = await request(app({ ...user, via: 'api-token' as const, tokenId: 't2', baseScope: 'p1' }).callback()).get('/api/v1/notes/n1');
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'ERR_NOTE_NOT_FOUND' });
  });

  it('a scoped endpoint refuses an anonymous caller (401) and a service (403) at once: they are not told a resource is missing', async () => {
    const anonymous = await request(app(undefined).callback()).get('/api/v1/notes/n1');
    expect({ status: anonymous.status, error: anonymous.body.error }).toEqual({ status: 401, error: 'ERR_AUTHENTICATION_REQUIRED' });
    const service = await request(app({ kind: 'service', id: 'meta', roles: [] }).callback()).get('/api/v1/notes/n1');
    expect({ status: service.status, message: service.body.message }).toEqual({ status: 403, message: 'Forbidden - services call internal endpoints only' });
    const admitted = await request(app({ ...user, via: 'jwt' as const }).callback()).get('/api/v1/notes/n1');
    expect({ status: admitted.status, body: admitted.body }).toEqual({ status: 200, body: { ok: true } });
  });

  it('a scoped endpoint of one caller kind other than the session answers a refused session as a missing resource', async () => {
    const res = await request(app({ ...user, via: 'jwt' as const }).callback()).get('/api/v1/token-notes/n1');
    expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'ERR_NOTE_NOT_FOUND' });
    expect((await request(app({ ...user, via: 'api-token', tokenId: 't1' } as Principal).callback()).get('/api/v1/token-notes/n1')).status).toBe(200);
  });

  it('an internal endpoint answers 403 to every caller but a service, anonymous included', async () => {
    for (const principal of [undefined, { ...user, via: 'jwt' as const }]) {
      const res = await request(app(principal).callback()).get('/internal/notes/n1');
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 403, message: 'Internal endpoint' });
    }
    expect((await request(app({ kind: 'service', id: 'meta', roles: [] }).callback()).get('/internal/notes/n1')).status).toBe(200);
  });
});

/** Unscoped endpoints: every refused caller kind is answered at once, each with its own answer. */
const passwordChange = defineEndpoint({
  id: 'passwordChangeT', method: 'POST', path: '/api/v1/me/password', service: 'auth', auth: { callers: SESSION },
  summary: 'Change the password', tags: ['Notes'], response: z.object({ ok: z.boolean() }),
});
const workspaceList = defineEndpoint({
  id: 'workspaceListT', method: 'GET', path: '/api/v1/workspace', service: 'auth', auth: { callers: ACCOUNT },
  summary: 'The workspace', tags: ['Notes'], response: z.object({ ok: z.boolean() }),
});
const tokenOnly = defineEndpoint({
  id: 'tokenOnlyT', method: 'GET', path: '/api/v1/token-only', service: 'auth', auth: { callers: ['orgToken'] as const },
  summary: 'Org tokens only', tags: ['Notes'], response: z.object({ ok: z.boolean() }),
});

function unscopedApp(principal: Principal | undefined): Koa {
  const router = guardedRouter(authorizer);
  route(router, passwordChange, () => ({ ok: true }));
  route(router, workspaceList, (ctx) => { expect(() => scopeOf(ctx)).toThrow(/no access scope/); return { ok: true }; });
  route(router, tokenOnly, () => ({ ok: true }));
  const koa = new Koa();
  koa.use(errorMiddleware({ error: () => undefined, warn: () => undefined } as never));
  koa.use(async (ctx, next) => { ctx.state.principal = principal; await next(); });
  koa.use(router.routes());
  return koa;
}

describe('caller kinds of an unscoped endpoint', () => {
  const orgToken = { ...user, via: 'api-token' as const, tokenId: 't1' } as Principal;
  const baseToken = { ...user, via: 'api-token' as const, tokenId: 't2', baseScope: 'p1' } as Principal;
  const session = { ...user, via: 'jwt' as const } as Principal;
  const service = { kind: 'service', id: 'meta', roles: [] } as unknown as Principal;
  const answer = async (principal: Principal | undefined, method: 'get' | 'post', path: string) => {
    const res = await request(unscopedApp(principal).callback())[method](path);
    return { status: res.status, error: res.body.error, message: res.body.message };
  };

  it('each refused caller kind gets its own answer', async () => {
    expect(callerKindOf(undefined)).toBe('anonymous');
    expect([session, orgToken, baseToken, service].map(callerKindOf)).toEqual(['session', 'orgToken', 'baseToken', 'service']);
    expect(await answer(undefined, 'post', '/api/v1/me/password')).toMatchObject({ status: 401, error: 'ERR_AUTHENTICATION_REQUIRED' });
    expect(await answer(service, 'post', '/api/v1/me/password')).toEqual({ status: 403, error: 'ERR_FORBIDDEN', message: 'Forbidden - services call internal endpoints only' });
    for (const token of [orgToken, baseToken]) expect(await answer(token, 'post', '/api/v1/me/password')).toMatchObject({ status: 401, error: 'ERR_API_TOKEN_NOT_ALLOWED' });
    expect(await answer(baseToken, 'get', '/api/v1/workspace')).toEqual({ status: 403, error: 'ERR_FORBIDDEN', message: 'Forbidden - a base-scoped API token cannot act on the workspace' });
    // a session refused from an org-token-only endpoint is not told that tokens are not allowed
    expect(await answer(session, 'get', '/api/v1/token-only')).toEqual({ status: 403, error: 'ERR_FORBIDDEN', message: 'Forbidden - a base-scoped API token cannot act on the workspace' });
    expect(await answer(baseToken, 'get', '/api/v1/token-only')).toMatchObject({ status: 403, error: 'ERR_FORBIDDEN' });
    for (const admitted of [session, orgToken]) expect((await answer(admitted, 'get', '/api/v1/workspace')).status).toBe(200);
    expect((await answer(session, 'post', '/api/v1/me/password')).status).toBe(200);
    expect((await answer(orgToken, 'get', '/api/v1/token-only')).status).toBe(200);
  });
});
