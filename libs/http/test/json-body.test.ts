import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import pino from 'pino';
import { errorMiddleware, jsonBody } from '../src';

/** One request on a fresh connection: `chunks` are written one by one (chunked), `body` at once (Content-Length). */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] }): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const headers = { ...opts.headers, ...(opts.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(opts.body)) }) };
    const req = http.request(`${url}/`, { method: opts.method ?? 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    if (opts.chunks) {
      // Keep writing after the answer: the server must answer without reading the rest.
      let i = 0;
      const write = () => { if (i < opts.chunks!.length && !req.destroyed) { req.write(opts.chunks![i++]); setImmediate(write); } else req.end(); };
      write();
    } else {
      req.end(opts.body);
    }
  });
}

describe('jsonBody (we read plain bodies, koa-body inflates compressed ones; we parse)', () => {
  const LIMIT = 4096;
  let server: http.Server;
  let url: string;
  let seen: { body: unknown; handled: number } = { body: null, handled: 0 };

  beforeAll(async () => {
    const app = new Koa();
    app.use(errorMiddleware(pino({ level: 'silent' })));
    app.use(jsonBody({ limit: LIMIT }));
    app.use((ctx) => {
      seen = { body: ctx.request.body, handled: seen.handled + 1 };
      ctx.body = { body: ctx.request.body === undefined ? '<undefined>' : ctx.request.body, polluted: ({} as Record<string, unknown>).polluted ?? null };
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { await new Promise((r) => server.close(r)); });

  it('parses JSON whatever the content type says (form, text, none), and on DELETE', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/octet-stream', 'nonsense']) {
      const res = await send(url, { headers: { 'content-type': type }, body: '{"a":1}' });
      expect([type, res.status, JSON.parse(res.text).body]).toEqual([type, 200, { a: 1 }]);
    }
    const untyped = await send(url, { body: '[1,2]' });
    expect(JSON.parse(untyped.text).body).toEqual([1, 2]);
    const del = await send(url, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: '{"ids":[1]}' });
    expect(JSON.parse(del.text).body).toEqual({ ids: [1] });
  });

  it('leaves no body and an empty body undefined; GET bodies are not read', async () => {
    expect(JSON.parse((await send(url, {})).text).body).toBe('<undefined>');
    expect(JSON.parse((await send(url, { headers: { 'content-type': 'application/json' }, body: '  ' })).text).body).toBe('<undefined>');
    expect(JSON.parse((await send(url, { method: 'GET', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).text).body).toBe('<undefined>');
  });

  it('malformed JSON is 400 ERR_INVALID_JSON', async () => {
    const res = await send(url, { headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: 'ERR_INVALID_JSON', message: 'Invalid JSON in request body', msg: 'Invalid JSON in request body' });
  });

  it('drops __proto__, constructor and prototype keys, escaped ones too', async () => {
    for (const body of ['{"__proto__":{"polluted":1},"a":1}', '{"\\u005f_proto__":{"polluted":1},"a":1}', '{"constructor":{"prototype":{"polluted":1}},"a":1}']) {
      const res = await send(url, { headers: { 'content-type': 'application/json' }, body });
      expect(JSON.parse(res.text)).toEqual({ body: { a: 1 }, polluted: null });
    }
  });

  it('413 on a declared Content-Length over the limit, before reading', async () => {
    const before = seen.handled;
    const res = await send(url, { headers: { 'content-type': 'application/json' }, body: `"${'x'.repeat(LIMIT)}"` });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    expect(res.headers.connection).toBe('close');
    expect(seen.handled).toBe(before);
  });

  it('413 on a chunked body over the limit, counted on the bytes read; a chunked body under it passes', async () => {
    const before = seen.handled;
    const chunks = [Buffer.from('['), ...Array.from({ length: 64 }, () => Buffer.from(`"${'y'.repeat(254)}",`)), Buffer.from('"end"]')];
    const res = await send(url, { headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    expect(seen.handled).toBe(before);
    const ok = await send(url, { headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks: [Buffer.from('{"a":'), Buffer.from('1}')] });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).body).toEqual({ a: 1 });
  });

  it('reads UTF-8 split inside a character across chunks, and drops a leading byte-order mark', async () => {
    const bytes = Buffer.from('{"name":"Zoë ✓ 𝄞"}', 'utf8');
    const cut = bytes.indexOf(Buffer.from('𝄞', 'utf8')) + 2; // inside the 4-byte character
    const split = await send(url, { headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunks: [bytes.subarray(0, cut), bytes.subarray(cut)] });
    expect(JSON.parse(split.text).body).toEqual({ name: 'Zoë ✓ 𝄞' });
    const bom = await send(url, { headers: { 'content-type': 'application/json' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":2}')]) });
    expect(JSON.parse(bom.text).body).toEqual({ a: 2 });
    // Content-Encoding: identity is a plain body too.
    const identity = await send(url, { headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }, body: '{"a":3}' });
    expect(JSON.parse(identity.text).body).toEqual({ a: 3 });
  });

  it('a compressed body is limited on its inflated bytes (no zip bomb past the limit)', async () => {
    const small = await send(url, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{"a":1}') });
    expect(JSON.parse(small.text).body).toEqual({ a: 1 });
    const bomb = gzipSync(`"${'z'.repeat(LIMIT * 50)}"`);
    expect(bomb.length).toBeLessThan(LIMIT);
    const res = await send(url, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb });
    expect(res.status).toBe(413);
  });
});
