import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createTestDatabase, entryArgs, freePort, waitHealthy, type TestDatabase } from '@tabula/testing';
import { Sink, call, setupTable } from './hooks-e2e.helpers';
import { OtlpReceiver, spanTree, type ReceivedSpan } from './otlp-receiver';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/**
 * Issue 34, on a real `npm start` process exporting over OTLP/HTTP (the SDK's
 * default protocol, protobuf) to a receiver this test runs: an idle instance
 * — outbox relay, hook delivery poller and the rest running — exports no span
 * in ten seconds; one record insert through the gateway that fires a webhook
 * is exactly one trace: the server span named by the route template, the
 * database queries, the bus's consumer, the delivery and the webhook call,
 * and no anonymous Koa middleware span.
 */
const root = path.resolve(__dirname, '..');
const IDLE_WINDOW_MS = 10_000;

describe('tracing of a standalone instance (OTLP receiver)', () => {
  const receiver = new OtlpReceiver();
  const sink = new Sink();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-tracing-e2e-'));
  let database: TestDatabase;
  let child: ChildProcess | undefined;
  let output = '';
  let url = '';

  beforeAll(async () => {
    await Promise.all([receiver.start(), sink.start()]);
    database = await createTestDatabase();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: database.url, EVENT_BUS: 'memory', LOG_LEVEL: 'warn',
      SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50',
      OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    for (const name of ['DATA_DATABASE_URL', 'REDIS_URL', 'TABULA_MODE', 'npm_lifecycle_event', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_EXPORTER', 'OTEL_SERVICE_NAME']) delete env[name];
    child = spawn(process.execPath, entryArgs('scripts/start-standalone.ts'), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => { output += chunk; });
    child.stderr?.on('data', (chunk) => { output += chunk; });
    await waitHealthy(`${url}/healthz`, 90_000).catch((err: Error) => { throw new Error(`${err.message}\n${output}`); });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    await Promise.all([receiver.stop(), sink.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exports no span while idle for ten seconds (pollers and relays start no trace)', async () => {
    // The window, not a duration under test: a poller's transaction every 50 ms would be ~200 root spans in it.
    await new Promise((resolve) => setTimeout(resolve, IDLE_WINDOW_MS));
    expect(receiver.spans.map((s) => `${s.service} ${s.name}`)).toEqual([]);
  }, IDLE_WINDOW_MS + 10_000);

  it('one record insert through the gateway is one trace of named spans: gateway, data, the bus, hooks and the webhook call', async () => {
    const t = await setupTable(url, `tracing-standalone-${Date.now()}@example.com`);
    const hook = await call(url, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'traced', event: 'after', operation: 'insert', version: 'v2',
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/traced` } },
    });
    expect(hook.status).toBe(200);
    // The spans of the set-up requests are in by the time the receiver has them all; the insert's are those after the mark.
    const before = new Set<string>();
    const settle = Date.now() + 10_000;
    let seen = -1;
    while (Date.now() < settle && seen !== receiver.spans.length) { seen = receiver.spans.length; await new Promise((r) => setTimeout(r, 500)); }
    for (const s of receiver.spans) before.add(s.traceId);

    const res = await call(url, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: 'traced' });
    expect(res.status).toBe(200);
    const [delivery] = await sink.waitFor('/traced', 1, 20_000);
    const traceId = String(delivery.headers.traceparent ?? '').split('-')[1];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(before.has(traceId)).toBe(false);

    const complete = (spans: ReceivedSpan[]) => spans.some((s) => s.kind === SERVER && !s.parentSpanId)
      && spans.some((s) => s.kind === CONSUMER)
      && spans.some((s) => s.name === 'deliver webhook')
      && spans.some((s) => s.kind === CLIENT && s.attributes['url.full']?.includes('/traced'));
    const until = Date.now() + 20_000;
    while (!complete(receiver.trace(traceId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    // Anything else exported meanwhile (there should be nothing: no request, no root span of a poller) is counted below.
    await new Promise((r) => setTimeout(r, 1000));
    const spans = receiver.trace(traceId);
    console.log(`trace ${traceId}: ${spans.length} spans\n${spanTree(spans)}`);

    // Exactly one trace was exported after the set-up: the insert's.
    const after = receiver.spans.filter((s) => !before.has(s.traceId));
    expect([...new Set(after.map((s) => s.traceId))]).toEqual([traceId]);
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots.map((s) => `${s.service} ${s.kind} ${s.name}`)).toEqual([`tabula-standalone ${SERVER} POST /api/v1/db/data/:orgs/:baseName/:tableName`]);
    expect(roots[0].attributes['http.route']).toBe('/api/v1/db/data/:orgs/:baseName/:tableName');
    // Named spans only: no anonymous Koa middleware, no server span named by its method alone, every span has a name;
    // a route's guard and handler are one span named by its contract.
    expect(spans.filter((s) => /^middleware\b|^$/.test(s.name) || (s.kind === SERVER && !s.name.includes(' /'))).map((s) => s.name)).toEqual([]);
    expect(spans.filter((s) => s.name === 'recordCreate')).toHaveLength(1);
    // The database: the insert itself, inside the request.
    const statement = (s: ReceivedSpan) => s.attributes['db.query.text'] ?? s.attributes['db.statement'] ?? '';
    expect(spans.filter((s) => s.kind === CLIENT && s.name.startsWith('pg.query:') && /insert into "\w+"\."items"/i.test(statement(s))).length).toBeGreaterThanOrEqual(1);
    // The bus: the event's consumer joins the request's trace.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (s: ReceivedSpan): ReceivedSpan[] => {
      const out: ReceivedSpan[] = [];
      for (let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p);
      return out;
    };
    const consumers = spans.filter((s) => s.kind === CONSUMER);
    expect(consumers.length).toBeGreaterThanOrEqual(1);
    for (const c of consumers) expect(c.name).toMatch(/^process \S+/);
    // Hooks: the delivery, and its webhook call as its child; every span reaches the root.
    const deliver = spans.filter((s) => s.name === 'deliver webhook');
    expect(deliver).toHaveLength(1);
    const webhook = spans.filter((s) => s.kind === CLIENT && s.parentSpanId === deliver[0].spanId && s.attributes['url.full']?.includes('/traced'));
    expect(webhook).toHaveLength(1);
    for (const s of spans.filter((x) => x.parentSpanId)) expect(ancestors(s).at(-1)?.spanId).toBe(roots[0].spanId);
  }, 90_000);
});
