import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Agent, buildConnector } from 'undici';
import { createSafeConnector } from '@tabula/http';
import { fetchUrl } from '../src/domain/fetch-url';
import { uploadByUrl } from '../src/domain/upload-by-url';
import type { StoragePorts } from '../src/ports';

let server: Server;
let port: number;
let agent: Agent;

/**
 * `public.example` stands for a public host (it connects to the local test
 * server without the guard); every other host goes through the real guard
 * with SVC_ALLOW_LOCAL_UPLOADS off. So a redirect from a "public" host to
 * loopback exercises the per-hop check at connect time.
 */
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/to-loopback') res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    else if (req.url === '/to-mapped') res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${port}/secret` }).end();
    else if (req.url === '/to-localhost') res.writeHead(301, { location: `http://localhost:${port}/secret` }).end();
    else if (req.url === '/to-public') res.writeHead(302, { location: `http://public.example:${port}/ok` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/secret' ? 'internal secret' : 'ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  const plain = buildConnector({});
  const guarded = createSafeConnector(false);
  agent = new Agent({
    connect: (options, callback) => (options.hostname === 'public.example'
      ? plain({ ...options, hostname: '127.0.0.1' }, callback)
      : guarded(options, callback)),
  });
});
afterAll(async () => {
  await agent.close();
  await new Promise((r) => server.close(r));
});

const open = (path: string) => fetchUrl(agent, `http://public.example:${port}${path}`, 1024, AbortSignal.timeout(5000));

describe('fetchUrl: every redirect hop is checked again', () => {
  it('a public host is fetched', async () => {
    const file = await open('/plain');
    let text = '';
    for await (const chunk of file.body) text += chunk;
    expect(text).toBe('ok');
  });

  it.each(['/to-loopback', '/to-mapped', '/to-localhost'])('%s: a redirect to loopback is refused at connect time', async (path) => {
    await expect(open(path)).rejects.toMatchObject({ status: 400, code: 'ERR_URL_NOT_ALLOWED' });
  });

  it('a redirect to another public host is followed', async () => {
    await expect(open('/to-public')).resolves.toMatchObject({ fileName: 'ok' });
  });
});

describe('upload by URL: failures answer one message, the detail goes to the log (issue 28 finding 8)', () => {
  it('a refused connection answers the generic message; the server log names the host and the refusal', async () => {
    const closed = createTcpServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    // the failure path touches neither the database nor the blob store: nothing was stored
    const ports = { config: { SVC_ATTACHMENT_FIELD_SIZE: 1024, SVC_UPLOAD_BY_URL_TIMEOUT_MS: 2000 }, fetcher: agent, logger } as unknown as StoragePorts;
    const target = { prefix: 'uploads', scope: 'private' as const, principal: { kind: 'user' as const, id: 'us1', roles: [] } };
    const failure = uploadByUrl(ports, [{ url: `http://public.example:${closedPort}/x` }], target);
    await expect(failure).rejects.toMatchObject({ status: 400, code: 'ERR_UPLOAD_URL_FAILED', message: 'Could not fetch the URL' });
    const logged = lines.map((l) => JSON.parse(l) as { msg: string; host: string; err: { message: string } });
    expect(logged).toEqual([expect.objectContaining({ msg: 'upload by URL: fetch failed', host: `public.example:${closedPort}` })]);
    expect(JSON.stringify(logged[0].err)).toContain('ECONNREFUSED');
  });
});
