/**
 * Benchmark helper: starts standalone Tabula in this process and additionally
 * exposes one service's in-process handler on its own port, so the load
 * generator (another process) can compare the gateway path with the direct one.
 * Prints one JSON line `{ url, directUrl, secret }` when ready.
 * With BENCH_COUNT_STATEMENTS=true the direct port also answers
 * `GET /__bench/statements?start` (record from now on) and
 * `GET /__bench/statements?match=…` (stop; the SQL statements the data service
 * ran on its database meanwhile whose text contains `match`, with their
 * bindings), for statement counts per request and EXPLAIN.
 * `GET /__bench/memory` on a direct port answers process.memoryUsage() after
 * a full garbage collection (when node runs with --expose-gc), for memory
 * deltas that GC timing does not blur; `GET /__bench/heapsnapshot?file=PATH`
 * writes a V8 heap snapshot there (to diff what N more streams hold).
 * With BENCH_PROFILE=true it also answers `GET /__bench/profile?start` (a CPU
 * profile of this process's main thread from now on) and `GET /__bench/profile`
 * (stop; the profile as JSON): records-serve-profile.ts profiles the server at
 * `npm start`'s defaults without its start-up.
 */
import http from 'node:http';
import v8 from 'node:v8';
import type { Knex } from 'knex';
import type { ServiceName } from '@tabula/http';
import { startTelemetry } from '@tabula/telemetry';
import { profileEndpoint } from './profile-endpoint';

// As `npm start` does (scripts/start-standalone.ts): tracing first (off with OTEL_SDK_DISABLED=true), then koa/pg/undici load instrumented.
startTelemetry('standalone');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startStandalone } = require('@tabula/runtime') as typeof import('@tabula/runtime');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { allServices } = require('../services') as typeof import('../services');

const statements: { sql: string; bindings?: unknown[] }[] = [];
let recording = false;

/**
 * The service definitions, the data service's database watched when counting is on.
 * BENCH_NO_START: services (comma-separated) whose background workers (consumers, relays) do not start,
 * to measure what they cost (workers-cost.ts).
 */
function definitions() {
  const idle = new Set((process.env.BENCH_NO_START ?? '').split(',').filter(Boolean));
  return withCounting(allServices.map((d) => (idle.has(d.name) ? { ...d, start: undefined } : d)));
}

function withCounting(services: typeof allServices) {
  if (process.env.BENCH_COUNT_STATEMENTS !== 'true') return services;
  return services.map((d) => (d.name !== 'data' ? d : {
    ...d,
    buildPorts: (common: { dataDb: Knex }, config: unknown) => {
      common.dataDb.on('query', (q: { sql: string; bindings?: unknown[] }) => { if (recording && statements.length < 10_000) statements.push({ sql: q.sql, bindings: q.bindings }); });
      return d.buildPorts(common as never, config as never);
    },
  }));
}

function countStatements(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const match = url.searchParams.get('match') ?? '';
  const seen = statements.splice(0).filter((s) => s.sql.includes(match));
  recording = url.searchParams.has('start');
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ count: seen.length, statements: seen }));
}

/** process.memoryUsage() after full collections (twice: what the first one freed may hold more). */
function collectedMemory(res: http.ServerResponse): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ collected: Boolean(gc), ...process.memoryUsage() }));
}

async function main(): Promise<void> {
  // One service, or several comma-separated (`auth,data`): each gets a port; directUrl is the first.
  const services = (process.argv[2] ?? 'auth').split(',') as ServiceName[];
  const handle = await startStandalone({ definitions: definitions() });
  const servers: http.Server[] = [];
  const directUrls: Record<string, string> = {};
  for (const service of services) {
    const handler = handle.handlerOf(service);
    if (!handler) throw new Error(`no service ${service}`);
    const direct = http.createServer((req, res) => {
      if (process.env.BENCH_COUNT_STATEMENTS === 'true' && req.url?.startsWith('/__bench/statements')) countStatements(req, res);
      else if (req.url === '/__bench/memory') collectedMemory(res);
      else if (req.url?.startsWith('/__bench/heapsnapshot')) res.end(v8.writeHeapSnapshot(new URL(req.url, 'http://x').searchParams.get('file') ?? undefined));
      else if (process.env.BENCH_PROFILE === 'true' && req.url?.startsWith('/__bench/profile')) void profileEndpoint(req, res);
      else handler(req, res);
    });
    await new Promise<void>((resolve) => direct.listen(0, '127.0.0.1', resolve));
    servers.push(direct);
    directUrls[service] = `http://127.0.0.1:${(direct.address() as { port: number }).port}`;
  }
  const directUrl = directUrls[services[0]];
  process.stdout.write(`${JSON.stringify({ url: handle.url, directUrl, directUrls, secret: handle.platform.SVC_INTERNAL_SECRET })}\n`);
  const stop = () => { for (const s of servers) s.close(); void handle.stop().then(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => { process.stderr.write(`${String(err)}\n`); process.exit(1); });
