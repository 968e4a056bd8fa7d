import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';
import { json, rawGet, sha256, signup } from './storage-e2e.helpers';

const LIMIT = 256 * 1024;
const payload = randomBytes(50_000);
let strict: TestStack;
let local: TestStack;
let strictToken: string;
let localToken: string;
let sink: Server;
let sinkUrl: string;

/** A target server: files, redirect chains, oversized bodies with and without Content-Length, a silent endpoint. */
function startSink(): Promise<void> {
  sink = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = /^\/hop\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/file.png') { res.writeHead(200, { 'content-type': 'image/png' }).end(payload); return; }
    if (hops) {
      const n = Number(hops[1]);
      if (n === 0) { res.writeHead(200, { 'content-type': 'text/plain' }).end('arrived'); return; }
      res.writeHead(302, { location: `/hop/${n - 1}` }).end(); return;
    }
    if (url.pathname === '/to-metadata') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(); return; }
    if (url.pathname === '/to-file') { res.writeHead(302, { location: 'file:///etc/passwd' }).end(); return; }
    if (url.pathname === '/declared-big') { res.writeHead(200, { 'content-length': String(LIMIT + 1) }).end(randomBytes(LIMIT + 1)); return; }
    if (url.pathname === '/chunked-big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const pump = () => { while (sent <= LIMIT) { sent += 16384; if (!res.write(randomBytes(16384))) { res.once('drain', pump); return; } } res.end(); };
      pump();
      return;
    }
    if (url.pathname === '/silent') return; // never answers
    if (url.pathname === '/cut') { res.writeHead(200, { 'content-length': '100000' }); res.write(randomBytes(1000), () => res.socket?.destroy()); return; }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => sink.listen(0, '127.0.0.1', () => { sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`; resolve(); }));
}

beforeAll(async () => {
  await startSink();
  const env = { SVC_ATTACHMENT_FIELD_SIZE: String(LIMIT), SVC_UPLOAD_BY_URL_TIMEOUT_MS: '1500' };
  strict = await startTestStack(allServices, env);
  local = await startTestStack(allServices, { ...env, SVC_ALLOW_LOCAL_UPLOADS: 'true' });
  strictToken = await signup(strict.url, 'by-url-strict@example.com');
  localToken = await signup(local.url, 'by-url-local@example.com');
});
afterAll(async () => {
  await strict.stop();
  await local.stop();
  sink.closeAllConnections();
  await new Promise((r) => sink.close(r));
});

const byUrl = (stack: TestStack, token: string, items: unknown) => json(stack.url, token, 'POST', '/api/v1/db/storage/upload-by-url', items);

describe('upload by URL: SSRF catalogue (SVC_ALLOW_LOCAL_UPLOADS=false)', () => {
  it.each([
    ['loopback', () => `${sinkUrl}/file.png`],
    ['localhost by name', () => `${sinkUrl.replace('127.0.0.1', 'localhost')}/file.png`],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${new URL(sinkUrl).port}/file.png`],
    ['IPv6 loopback', () => `http://[::1]:${new URL(sinkUrl).port}/`],
    ['decimal IPv4 loopback', () => `http://2130706433:${new URL(sinkUrl).port}/`],
    ['private 10/8', () => 'http://10.0.0.1/'],
    ['private 192.168/16', () => 'http://192.168.1.1/'],
    ['unspecified 0.0.0.0', () => `http://0.0.0.0:${new URL(sinkUrl).port}/`],
    ['file: scheme', () => 'file:///etc/passwd'],
    ['ftp: scheme', () => 'ftp://example.com/x'],
    ['gopher: scheme', () => 'gopher://127.0.0.1:6379/_INFO'],
    ['javascript: scheme', () => 'javascript:alert(1)'],
  ])('%s is refused with 400', async (_label, target) => {
    const res = await byUrl(strict, strictToken, [{ url: target() }]);
    expect(res.status).toBe(400);
    expect(['ERR_URL_NOT_ALLOWED']).toContain(res.body.error);
  });

  it('data: URLs are decoded in process; over the limit → 413', async () => {
    const ok = await byUrl(strict, strictToken, [{ url: `data:text/plain;base64,${Buffer.from('hello').toString('base64')}`, fileName: 'h.txt' }]);
    expect(ok.status).toBe(200);
    expect(ok.body[0]).toMatchObject({ title: 'h.txt', mimetype: 'text/plain', size: 5 });
    expect((await rawGet(strict.url, `/${ok.body[0].signedPath}`)).body.toString()).toBe('hello');
    const big = await byUrl(strict, strictToken, [{ url: `data:application/octet-stream;base64,${randomBytes(LIMIT + 1).toString('base64')}` }]);
    expect(big.status).toBe(413);
  });
});

describe('upload by URL with SVC_ALLOW_LOCAL_UPLOADS=true', () => {
  it('fetches a loopback file (identical bytes, type from the response)', async () => {
    const res = await byUrl(local, localToken, [{ url: `${sinkUrl}/file.png` }]);
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ title: 'file.png', mimetype: 'image/png', size: payload.length });
    expect(sha256((await rawGet(local.url, `/${res.body[0].signedPath}`)).body)).toBe(sha256(payload));
  });

  it('metadata and link-local stay refused, directly and through a redirect', async () => {
    expect((await byUrl(local, localToken, [{ url: 'http://169.254.169.254/latest/meta-data/' }])).status).toBe(400);
    const hop = await byUrl(local, localToken, [{ url: `${sinkUrl}/to-metadata` }]);
    expect(hop.status).toBe(400);
    expect(hop.body.error).toBe('ERR_URL_NOT_ALLOWED');
    expect((await byUrl(local, localToken, [{ url: `${sinkUrl}/to-file` }])).body.error).toBe('ERR_URL_NOT_ALLOWED');
  });

  it('3 redirects are followed, a 4th is refused', async () => {
    const three = await byUrl(local, localToken, [{ url: `${sinkUrl}/hop/3`, fileName: 'a.txt' }]);
    expect(three.status).toBe(200);
    const four = await byUrl(local, localToken, [{ url: `${sinkUrl}/hop/4` }]);
    expect(four.status).toBe(400);
    expect(four.body.error).toBe('ERR_TOO_MANY_REDIRECTS');
  });

  it('a body over the limit → 413, with a Content-Length and without one (chunked)', async () => {
    expect((await byUrl(local, localToken, [{ url: `${sinkUrl}/declared-big` }])).status).toBe(413);
    expect((await byUrl(local, localToken, [{ url: `${sinkUrl}/chunked-big` }])).status).toBe(413);
  });

  it('a target that never answers times out', async () => {
    // The service gave up on its own (its answer, not the test's timeout): no elapsed-time bound needed.
    const res = await byUrl(local, localToken, [{ url: `${sinkUrl}/silent` }]);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_UPLOAD_URL_FAILED');
  });

  it('issue 28 finding 8: refused, reset, timed out, cut off, unresolvable and non-2xx answer one message (no host or port map)', async () => {
    // a closed port (refused), a port that resets every connection, a server that never answers
    const closed = createTcpServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const resetter = createTcpServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((r) => resetter.listen(0, '127.0.0.1', r));
    try {
      const targets = {
        refused: `http://127.0.0.1:${closedPort}/x`,
        reset: `http://127.0.0.1:${(resetter.address() as AddressInfo).port}/x`,
        timeout: `${sinkUrl}/silent`,
        cutMidBody: `${sinkUrl}/cut`,
        notFound: `${sinkUrl}/nothing-here`,
        unresolvable: 'http://no-such-host.invalid/x',
      };
      const answers: Record<string, unknown> = {};
      for (const [label, url] of Object.entries(targets)) {
        const res = await byUrl(local, localToken, [{ url }]);
        answers[label] = { status: res.status, body: res.body };
      }
      const generic = { status: 400, body: { error: 'ERR_UPLOAD_URL_FAILED', message: 'Could not fetch the URL', msg: 'Could not fetch the URL' } };
      expect(answers).toEqual(Object.fromEntries(Object.keys(targets).map((k) => [k, generic])));
    } finally {
      await new Promise((r) => resetter.close(r));
    }
  });
});
