import request from 'supertest';
import { startTestStack, type TestStack } from '@tabula/testing';
import { gatewayService } from '../services/gateway/src/service';

/** The gateway alone: its own routes, authentication gate and a missing service. */
describe('gateway', () => {
  let stack: TestStack;
  beforeAll(async () => { stack = await startTestStack([gatewayService]); });
  afterAll(async () => { await stack.stop(); });

  it('GET /api/v1/health answers {message, timestamp, uptime}', async () => {
    const res = await request(stack.url).get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'OK', timestamp: expect.any(Number), uptime: expect.any(Number) });
  });

  it('GET /api/v1/version answers the versions, Tabula\'s own from package.json', async () => {
    const res = await request(stack.url).get('/api/v1/version');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { version } = require('../package.json') as { version: string };
    expect(res.body).toEqual({ currentVersion: '0.301.3', releaseVersion: '0.301.3', tabulaVersion: version });
  });

  it('unknown routes are 404 JSON', async () => {
    const res = await request(stack.url).get('/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'ERR_NOT_FOUND', msg: expect.any(String), message: expect.any(String) });
  });

  it('a protected route without a credential is 401 ERR_AUTHENTICATION_REQUIRED', async () => {
    const res = await request(stack.url).get('/api/v1/db/meta/projects/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: 'ERR_AUTHENTICATION_REQUIRED', message: 'Authentication required - Invalid token', msg: 'Authentication required - Invalid token',
    });
  });

  it('a service that is not running gives 503 JSON', async () => {
    // (How fast is not asserted here: a refused connection answers at once on any machine; a hang would hit the test timeout.)
    const res = await request(stack.url).post('/api/v1/auth/user/signin').send({ email: 'a@b.c', password: 'x' });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('ERR_SERVICE_UNAVAILABLE');
  });

  it('answers CORS preflights; without SVC_CORS_ORIGINS no origin gets credentials', async () => {
    const res = await request(stack.url).options('/api/v1/db/meta/projects/')
      .set('origin', 'https://app.example.com').set('access-control-request-method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('serves /healthz and /readyz; /metrics not on the public port (SVC_METRICS_PUBLIC is off)', async () => {
    expect((await request(stack.url).get('/readyz')).body).toMatchObject({ status: 'ok', checks: { database: 'ok', events: 'ok' } });
    expect((await request(stack.url).get('/metrics')).status).toBe(404);
  });
});
