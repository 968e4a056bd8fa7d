import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { freePort } from '@tabula/testing';
import { HttpDispatcher } from '../src/dispatcher';
import { classifyProxyError } from '@tabula/http';

/** Captures what the dispatcher logs. */
class LogCapture {
  readonly lines: Array<{ level: string; fields: Record<string, unknown>; msg?: string }> = [];
  info = (fields: object, msg?: string) => void this.lines.push({ level: 'info', fields: fields as Record<string, unknown>, msg });
  warn = (fields: object, msg?: string) => void this.lines.push({ level: 'warn', fields: fields as Record<string, unknown>, msg });
  error = (fields: object, msg?: string) => void this.lines.push({ level: 'error', fields: fields as Record<string, unknown>, msg });
}

async function listen(server: http.Server | net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A gateway-like front server that hands every request to the dispatcher for service 'data' (paths under /stream as a `transport: 'stream'` route). */
async function front(dispatcher: HttpDispatcher): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((req, res) => void dispatcher.dispatch('data', req, res, { stream: req.url?.startsWith('/stream') }));
  return { url: await listen(server), server };
}

describe('HttpDispatcher (cluster proxy)', () => {
  const servers: Array<http.Server | net.Server> = [];
  const dispatchers: HttpDispatcher[] = [];
  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((d) => d.close()));
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  const setup = async (upstreamUrl: string, timeoutMs?: number) => {
    const log = new LogCapture();
    const dispatcher = new HttpDispatcher({ data: upstreamUrl }, log, timeoutMs);
    dispatchers.push(dispatcher);
    const gw = await front(dispatcher);
    servers.push(gw.server);
    return { log, url: gw.url };
  };

  it('forwards a request carrying Expect: 100-continue (body streamed, answer passed through)', async () => {
    const upstream = http.createServer((req, res) => {
      let size = 0;
      req.on('data', (chunk: Buffer) => { size += chunk.length; });
      req.on('end', () => res.end(JSON.stringify({ size, expect: req.headers.expect ?? null })));
    });
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream));
    const body = Buffer.alloc(2 * 1024 * 1024, 'a');
    const answer = await new Promise<{ status: number; continued: boolean; text: string }>((resolve, reject) => {
      let continued = false;
      const req = http.request(`${url}/x`, { method: 'POST', headers: { expect: '100-continue', 'content-length': body.length, 'x-request-id': 'rid-expect' } });
      req.on('continue', () => { continued = true; req.end(body); });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => { text += c; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued, text }));
      });
      req.on('error', reject);
    });
    expect(answer).toEqual({ status: 200, continued: true, text: JSON.stringify({ size: body.length, expect: null }) });
    expect(log.lines).toEqual([]);
  });

  it('answers 503 when the service refuses connections, and logs it with the request id', async () => {
    const { url, log } = await setup(`http://127.0.0.1:${await freePort()}`);
    const res = await fetch(`${url}/x`, { headers: { 'x-request-id': 'rid-refused' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: 'ERR_SERVICE_UNAVAILABLE', msg: "Service 'data' is unavailable" });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ level: 'warn', fields: { request_id: 'rid-refused', status: 503, reason: 'refused', code: 'ECONNREFUSED', target: 'data' } });
  });

  it('answers 503 when the service resets the connection before answering', async () => {
    const upstream = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream));
    const res = await fetch(`${url}/x`, { headers: { 'x-request-id': 'rid-reset' } });
    expect(res.status).toBe(503);
    expect(log.lines[0]).toMatchObject({ fields: { request_id: 'rid-reset', status: 503, reason: 'reset' } });
  });

  it('answers 504 (not 503) when the service accepts but does not answer in time', async () => {
    const upstream = http.createServer(() => undefined);
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream), 300);
    const res = await fetch(`${url}/x`, { headers: { 'x-request-id': 'rid-slow' } });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: 'ERR_GATEWAY_TIMEOUT' });
    expect(log.lines[0]).toMatchObject({ fields: { request_id: 'rid-slow', status: 504, code: 'UND_ERR_HEADERS_TIMEOUT' } });
    upstream.closeAllConnections();
  });

  it('a stream route (its contract\'s transport) has no body timeout; any other body is cut after the timeout', async () => {
    const upstream = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': ping\n\n');
      setTimeout(() => res.end('data: late\n\n'), 2500);
    });
    servers.push(upstream);
    const { url } = await setup(await listen(upstream), 300);
    const streamed = await fetch(`${url}/stream/x`);
    expect(await streamed.text()).toBe(': ping\n\ndata: late\n\n');
    const plain = await fetch(`${url}/x`);
    await expect(plain.text()).rejects.toThrow();
  });

  it('passes the service answer through unchanged, errors included', async () => {
    const upstream = http.createServer((req, res) => { res.writeHead(503, { 'content-type': 'application/json' }); res.end('{"error":"ERR_FROM_SERVICE"}'); });
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream));
    const res = await fetch(`${url}/x`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'ERR_FROM_SERVICE' });
    expect(log.lines).toEqual([]);
  });

  it('refuses an absolute-form request target (it would name another host) with 400', async () => {
    const upstream = http.createServer((_req, res) => res.end('{}'));
    servers.push(upstream);
    const { url } = await setup(await listen(upstream));
    const { port } = new URL(url);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('GET http://example.com/api/v1/x HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n'));
      let raw = '';
      socket.on('data', (c) => { raw += c; });
      socket.on('end', () => resolve({ status: Number(raw.split(' ')[1]), text: raw.slice(raw.indexOf('\r\n\r\n') + 4) }));
      socket.on('error', reject);
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: 'ERR_INVALID_PATH' });
  });

  it('streams a large answer through unchanged', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x');
    const upstream = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-extra': 'kept' }); res.end(big); });
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream));
    const res = await fetch(`${url}/x`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-extra')).toBe('kept');
    expect(Buffer.from(await res.arrayBuffer()).equals(big)).toBe(true);
    expect(log.lines).toEqual([]);
  });

  it('logs a reply cut after its headers and cuts the client connection (no made-up status)', async () => {
    const upstream = net.createServer((socket) => socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial');
      setTimeout(() => socket.destroy(), 50);
    }));
    servers.push(upstream);
    const { url, log } = await setup(await listen(upstream));
    const res = await fetch(`${url}/x`, { headers: { 'x-request-id': 'rid-cut' } });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    // The client sees the cut as the socket goes; the proxy logs it once undici reports the error (a tick later).
    for (let i = 0; i < 50 && log.lines.length === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(log.lines[0]).toMatchObject({ level: 'warn', fields: { request_id: 'rid-cut' }, msg: 'proxy: response body interrupted' });
  });
});

describe('classifyProxyError', () => {
  it.each([
    ['ECONNREFUSED', 503], ['ECONNRESET', 503], ['UND_ERR_SOCKET', 503], ['UND_ERR_CONNECT_TIMEOUT', 503], ['ENOTFOUND', 503],
    ['UND_ERR_HEADERS_TIMEOUT', 504], ['UND_ERR_NOT_SUPPORTED', 502], ['UND_ERR_INVALID_ARG', 502], [undefined, 502],
  ])('%s -> %d', (code, status) => {
    const err = Object.assign(new Error('x'), code ? { code } : {});
    expect(classifyProxyError(err).status).toBe(status);
    expect(classifyProxyError(new Error('wrapped', { cause: err })).status).toBe(status);
  });
});
