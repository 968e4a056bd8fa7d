import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import pino from 'pino';
import { createServiceApp } from '@tabula/http';
import { rawRequest } from './security.helpers';

/** Issue 17 defect 2 inside a service (cluster mode: a service reached without the gateway's limit). */
describe('security: service body limits', () => {
  let server: http.Server;
  let url: string;
  let handled = 0;

  beforeAll(async () => {
    const router = new Router();
    router.post('/echo', (ctx) => { handled += 1; ctx.body = { size: JSON.stringify(ctx.request.body).length }; });
    const app = createServiceApp({ name: 'limit', logger: pino({ level: 'silent' }), routers: [router], bodyLimit: 16 * 1024 });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { await new Promise((r) => server.close(r)); });

  it('defect 2: a service answers 413 to a chunked body over its limit (counted on the bytes read) and never runs the handler', async () => {
    const chunk = Buffer.from(`"${'y'.repeat(4094)}",`);
    const chunks = [Buffer.from('['), ...Array.from({ length: 256 }, () => chunk), Buffer.from('"end"]')];
    const res = await rawRequest(url, { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    expect(handled).toBe(0);
    const ok = await rawRequest(url, { method: 'POST', path: '/echo', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks: [Buffer.from('{"a":'), Buffer.from('1}')] });
    expect(ok.status).toBe(200);
  });
});
