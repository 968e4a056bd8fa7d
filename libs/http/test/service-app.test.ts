import Router from '@koa/router';
import request from 'supertest';
import { z } from 'zod';
import knexFactory, { type Knex } from 'knex';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { mapDbError } from '@tabula/db';
import { AppError, createServiceApp, validate } from '../src';

describe('createServiceApp: the house middleware stack', () => {
  let database: TestDatabase;
  let db: Knex;
  let app: ReturnType<typeof createServiceApp>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 2 } });
    await db.schema.createTable('things', (t) => { t.string('name').unique(); });
    const router = new Router();
    router.post('/echo', (ctx) => { ctx.body = { body: ctx.request.body ?? null, polluted: ({} as Record<string, unknown>).polluted ?? null }; });
    router.post('/typed', validate({ body: z.object({ title: z.string().min(1).max(255) }) }), (ctx) => { ctx.body = ctx.state.input; });
    router.get('/teapot', () => { throw new AppError(418, 'ERR_TEAPOT', 'I am a teapot'); });
    router.get('/boom', () => { throw new Error('secret internal detail'); });
    router.post('/things', async (ctx) => { await db('things').insert({ name: 'same' }); ctx.body = { ok: true }; });
    app = createServiceApp({ name: 'test', logger: pino({ level: 'silent' }), routers: [router], errorMappers: [mapDbError], bodyLimit: 1024 });
  });
  afterAll(async () => { await db.destroy(); await database.drop(); });

  it('answers /healthz, /readyz and /metrics', async () => {
    expect((await request(app.callback()).get('/healthz')).body).toMatchObject({ status: 'ok' });
    expect((await request(app.callback()).get('/readyz')).status).toBe(200);
    const metrics = await request(app.callback()).get('/metrics');
    expect(metrics.text).toContain('process_cpu_user_seconds_total');
  });

  it('malformed JSON is 400 ERR_INVALID_JSON with both body shapes', async () => {
    const res = await request(app.callback()).post('/echo').set('content-type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ERR_INVALID_JSON', message: 'Invalid JSON in request body', msg: 'Invalid JSON in request body' });
  });

  it('drops __proto__ keys instead of polluting prototypes', async () => {
    const res = await request(app.callback()).post('/echo').set('content-type', 'application/json').send('{"__proto__":{"polluted":1},"a":1}');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ body: { a: 1 }, polluted: null });
    const escaped = await request(app.callback()).post('/echo').set('content-type', 'application/json').send('{"\\u005f_proto__":{"polluted":1},"a":1}');
    expect(escaped.body).toEqual({ body: { a: 1 }, polluted: null });
  });

  it('refuses a body over the limit', async () => {
    const res = await request(app.callback()).post('/echo').send({ big: 'x'.repeat(2000) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('validation failures name the field (400 ERR_INVALID_REQUEST_BODY)', async () => {
    const res = await request(app.callback()).post('/typed').send({ title: 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_REQUEST_BODY');
    expect(res.body.msg).toMatch(/^title: /);
  });

  it('keeps an AppError status and code, and hides unexpected errors behind a generic 500', async () => {
    expect((await request(app.callback()).get('/teapot')).body).toMatchObject({ error: 'ERR_TEAPOT', msg: 'I am a teapot' });
    const res = await request(app.callback()).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'ERR_INTERNAL_SERVER', message: 'Internal server error', msg: 'Internal server error' });
  });

  it('maps a real unique violation by SQLSTATE', async () => {
    expect((await request(app.callback()).post('/things').send({})).status).toBe(200);
    const res = await request(app.callback()).post('/things').send({});
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_FIELD_UNIQUE_CONSTRAINT_VIOLATION');
  });

  it('unknown routes are 404 JSON and carry a request id', async () => {
    const res = await request(app.callback()).get('/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NOT_FOUND');
    expect(res.headers['x-request-id']).toMatch(/.+/);
  });
});
