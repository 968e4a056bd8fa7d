import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { createSafeConnector } from '@tabula/http';
import { fetchUrl } from '../src/domain/fetch-url';

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
