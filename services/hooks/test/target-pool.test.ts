import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeAgent } from '@tabula/http';
import { sendRequest } from '../src/delivery/send-request';

/** The hook sender's dispatcher: kept-alive, bounded sockets per target, still refusing private targets unless allowed. */
describe('hook target connection pool', () => {
  let server: Server;
  let port = 0;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('ok'), 5));
    });
    server.on('connection', () => { connections += 1; });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (agent: ReturnType<typeof createSafeAgent>, host = '127.0.0.1') =>
    sendRequest(agent, { method: 'POST', url: `http://${host}:${port}/hook`, headers: { 'content-type': 'application/json' }, body: '{}' }, 2000);

  it('reuses kept-alive sockets for calls one after another, and opens at most `connections` for concurrent ones', async () => {
    const agent = createSafeAgent(true, { connections: 3 });
    try {
      connections = 0;
      for (let i = 0; i < 10; i++) expect((await post(agent)).ok).toBe(true);
      // undici's pool may open a second socket while the first is finishing its response; never one per call
      expect(connections).toBeLessThanOrEqual(2);
      const results = await Promise.all(Array.from({ length: 30 }, () => post(agent)));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(connections).toBeLessThanOrEqual(3);
    } finally {
      await agent.close();
    }
  });

  it('refuses loopback and private targets without SVC_ALLOW_LOCAL_HOOKS, by IP literal and by name at DNS resolution', async () => {
    const agent = createSafeAgent(false, { connections: 3 });
    try {
      connections = 0;
      for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
        const result = await post(agent, host);
        expect(result.ok).toBe(false);
        expect(result.status).toBeUndefined();
      }
      expect(connections).toBe(0);
    } finally {
      await agent.close();
    }
    const metadata = createSafeAgent(true, { connections: 3 });
    try {
      expect((await sendRequest(metadata, { method: 'GET', url: 'http://169.254.169.254/latest', headers: {}, body: '' }, 1000)).ok).toBe(false);
    } finally {
      await metadata.close();
    }
  });
});
