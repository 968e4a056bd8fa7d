import Koa from 'koa';
import Router from '@koa/router';
import request from 'supertest';
import { z } from 'zod';
import { aliasesOf, aliasOf, buildOpenApi, defineEndpoint, SERVICES, USERS } from '@tabula/contracts';
import { AppError, bracketArrays, clientOf, errorMiddleware, jsonBody, LocalServiceClient, route } from '@tabula/http';

const noteGet = defineEndpoint({
  id: 'noteGet', method: 'GET', path: '/internal/notes/{noteId}', service: 'comments', auth: { callers: SERVICES },
  summary: 'Read a note', tags: ['Notes'],
  params: z.object({ noteId: z.string().min(1) }),
  query: z.object({ upper: z.enum(['true', 'false']).optional() }),
  response: z.object({ id: z.string(), text: z.string() }),
});
const noteCreate = defineEndpoint({
  id: 'noteCreate', method: 'POST', path: '/api/v1/notes', service: 'comments', auth: { callers: USERS },
  summary: 'Create a note', tags: ['Notes'], status: 201,
  body: z.object({ text: z.string().min(1).max(10) }),
  response: z.object({ id: z.string(), text: z.string() }),
  example: { request: { text: 'hi' }, response: { id: 'n1', text: 'hi' } },
});
/** NocoDB-style second path of the same contract (served by noteCreate's route). */
const noteCreateV2 = aliasOf(noteCreate, { id: 'noteCreateV2', path: '/api/v2/notes' });

function app(): Koa {
  const router = new Router();
  route(router, noteGet, async (ctx) => {
    if (ctx.input.params.noteId === 'missing') throw new AppError(404, 'ERR_NOTE_NOT_FOUND', 'Note not found');
    const text = ctx.input.query.upper === 'true' ? 'HELLO' : 'hello';
    return { id: ctx.input.params.noteId, text };
  });
  route(router, noteCreate, async (ctx) => ({ id: 'n1', text: ctx.input.body.text }));
  const koa = new Koa();
  koa.use(errorMiddleware({ error: () => undefined, warn: () => undefined } as never));
  koa.use(jsonBody({ limit: 1024 }));
  // Stands in for the identity middleware: the local client's header is a service, `x-test-user` a user.
  koa.use(async (ctx, next) => {
    if (ctx.get('x-tabula-identity') === 'identity') ctx.state.principal = { kind: 'service', id: 'data', roles: [] };
    if (ctx.get('x-test-user')) ctx.state.principal = { kind: 'user', id: ctx.get('x-test-user'), roles: [] };
    await next();
  });
  koa.use(router.routes());
  return koa;
}

describe('endpoint contracts', () => {
  it('reads axios\'s `key[]` query parameters (nocodb-sdk arrays) as `key`, as NocoDB does', () => {
    expect(bracketArrays({ 'fields[]': ['Title', 'Qty'], sort: '-Qty' })).toEqual({ fields: ['Title', 'Qty'], sort: '-Qty' });
    expect(bracketArrays({ 'fields[]': 'Title' })).toEqual({ fields: ['Title'] });
    expect(bracketArrays({ fields: 'Id', 'fields[]': ['Title'] })).toEqual({ fields: ['Id', 'Title'] });
    expect(bracketArrays({ '[]': 'x', where: '(a,eq,b)' })).toEqual({ '[]': 'x', where: '(a,eq,b)' });
    const plain = { limit: '1' };
    expect(bracketArrays(plain)).toBe(plain);
  });

  it('an alias is a contract of its own (id, path) with the original\'s access and schemas, served by the original\'s route', async () => {
    expect([noteCreateV2.id, noteCreateV2.path, noteCreateV2.sameAs, noteCreateV2.access]).toEqual(['noteCreateV2', '/api/v2/notes', 'noteCreate', 'user']);
    expect([noteCreateV2.auth, noteCreateV2.body, noteCreateV2.status]).toEqual([noteCreate.auth, noteCreate.body, 201]);
    expect(aliasesOf(noteCreate)).toEqual([noteCreateV2]);
    expect(noteCreate.sameAs).toBeUndefined();
    const res = await request(app().callback()).post('/api/v2/notes').set('x-test-user', 'us1').send({ text: 'v2' });
    expect([res.status, res.body]).toEqual([201, { id: 'n1', text: 'v2' }]);
    expect((await request(app().callback()).post('/api/v2/notes').send({ text: 'v2' })).status).toBe(401);
    expect((await request(app().callback()).post('/api/v2/notes').set('x-test-user', 'us1').send({ text: 'x'.repeat(11) })).status).toBe(400);
    expect(() => aliasOf(noteGet, { id: 'noteGetV2', path: '/internal/v2/notes/{id}' })).toThrow(/same path parameters/);
  });

  it('validates input onto ctx.input and answers with the contract status', async () => {
    const res = await request(app().callback()).post('/api/v1/notes').set('x-test-user', 'us1').send({ text: 'hi' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 'n1', text: 'hi' });
    const bad = await request(app().callback()).post('/api/v1/notes').set('x-test-user', 'us1').send({ text: 'x'.repeat(11) });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_INVALID_REQUEST_BODY');
  });

  it('admits only the callers the contract declares, before reading the input', async () => {
    const anonymous = await request(app().callback()).post('/api/v1/notes').send({ text: 'x'.repeat(11) });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'ERR_AUTHENTICATION_REQUIRED']);
    const userOnInternal = await request(app().callback()).get('/internal/notes/a').set('x-test-user', 'us1');
    expect([userOnInternal.status, userOnInternal.body.message]).toEqual([403, 'Internal endpoint']);
    const serviceOnPublic = await request(app().callback()).post('/api/v1/notes').set('x-tabula-identity', 'identity').send({ text: 'hi' });
    expect(serviceOnPublic.status).toBe(403);
  });

  it('the typed client fills the path, parses the answer and rethrows errors with their code', async () => {
    const local = new LocalServiceClient(() => 'identity');
    local.register('comments', app().callback());
    const notes = clientOf(local, { get: noteGet });
    await expect(notes.get({ params: { noteId: 'a b' }, query: { upper: 'true' } })).resolves.toEqual({ id: 'a b', text: 'HELLO' });
    await expect(notes.get({ params: { noteId: 'missing' } })).rejects.toMatchObject({ status: 404, code: 'ERR_NOTE_NOT_FOUND' });
  });

  it('builds an OpenAPI 3.1 document of the public endpoints only', () => {
    const doc = buildOpenApi([noteGet, noteCreate], { title: 't', version: '1' }) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(['/api/v1/notes']);
    expect(doc.paths['/api/v1/notes'].post.operationId).toBe('noteCreate');
    expect(Object.keys(doc.paths['/api/v1/notes'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '401']));
  });
});
