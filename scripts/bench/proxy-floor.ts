/**
 * The floor of one proxy hop (issue 16, cluster mode): a bare `node:http`
 * server that forwards every request to one upstream through an undici pool
 * (keep-alive, as the gateway does) with a fixed header added, and streams the
 * answer back. No auth, no routing, no metrics, no logging: what any Node
 * proxy costs per request on this machine, beside which the gateway's own
 * cost is read.
 * Usage: tsx scripts/bench/proxy-floor.ts <upstream origin> (PROXY_HEADER=name:value, PROXY_POOL=connections)
 * Prints one JSON line `{ url }` when listening.
 */
import http from 'node:http';
import { Pool } from 'undici';

const upstream = process.argv[2];
const [headerName, ...rest] = (process.env.PROXY_HEADER ?? 'x-proxy:floor').split(':');
const headerValue = rest.join(':');
const pool = new Pool(upstream, { connections: Number(process.env.PROXY_POOL ?? 32), pipelining: 1 });
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host']);

const server = http.createServer((req, res) => {
  const headers: string[] = [headerName, headerValue];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (!HOP.has(raw[i].toLowerCase())) headers.push(raw[i], raw[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  // The leanest undici path (dispatch, no response stream), as the gateway's ProxyHandler uses.
  pool.dispatch({ method: req.method as 'GET', path: req.url ?? '/', headers, body: hasBody ? req : undefined }, {
    onConnect() { /* not aborted */ },
    onHeaders(status, rawHeaders, resume) {
      const out: string[] = [];
      for (let i = 0; i < rawHeaders.length; i += 2) {
        const name = rawHeaders[i].toString('latin1');
        if (!HOP.has(name.toLowerCase())) out.push(name, rawHeaders[i + 1].toString('latin1'));
      }
      res.writeHead(status, out);
      res.on('drain', resume);
      return !res.writableNeedDrain;
    },
    onData(chunk) { return res.write(chunk); },
    onComplete() { res.end(); },
    onError() { if (!res.headersSent) res.writeHead(502); res.end(); },
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
