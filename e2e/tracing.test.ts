import { createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';
import { Sink, call, setupTable } from './hooks-e2e.helpers';
import { OtlpReceiver, spanTree, type ReceivedSpan } from './otlp-receiver';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/**
 * One request that inserts a record and fires a webhook is one trace across
 * processes: gateway → data → (outbox relay, Redis Streams) → hooks consumer →
 * delivery → webhook HTTP call. Spans are exported over OTLP/HTTP to a
 * receiver this test runs on loopback.
 */
describeWithBackend('redis', 'tracing across services and the bus (cluster mode)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  const sink = new Sink();
  const receiver = new OtlpReceiver();
  let t: Awaited<ReturnType<typeof setupTable>>;

  beforeAll(async () => {
    await Promise.all([sink.start(), receiver.start()]);
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data', 'hooks'], database.url, {
      SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50',
      OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
    await Promise.all([sink.stop(), receiver.stop()]);
  });

  it('exports no span while the cluster is idle for ten seconds (pollers, relays and probes start no trace)', async () => {
    // The window, not a duration under test: the hooks poller alone runs every 50 ms here.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect(receiver.spans.map((s) => `${s.service} ${s.name}`)).toEqual([]);
  }, 20_000);

  it('links gateway, data, the bus, hooks and the webhook call in one trace', async () => {
    t = await setupTable(cluster.gatewayUrl, `tracing-${Date.now()}@example.com`);
    const hook = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'traced', event: 'after', operation: 'insert', version: 'v2',
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/traced` } },
    });
    expect(hook.status).toBe(200);
    const res = await call(cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: 'traced' });
    expect(res.status).toBe(200);
    const [delivery] = await sink.waitFor('/traced', 1, 20_000);
    const traceId = String(delivery.headers.traceparent ?? '').split('-')[1];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const want = (spans: ReceivedSpan[]) =>
      spans.some((s) => s.service === 'tabula-gateway' && s.kind === SERVER && !s.parentSpanId)
      && spans.some((s) => s.service === 'tabula-data' && s.kind === SERVER)
      && spans.some((s) => s.service === 'tabula-hooks' && s.kind === CONSUMER)
      && spans.some((s) => s.service === 'tabula-hooks' && s.name === 'deliver webhook')
      && spans.filter((s) => s.service === 'tabula-hooks' && s.kind === CLIENT).length >= 1
      && receiver.trace(traceId).length === spans.length;
    const until = Date.now() + 20_000;
    while (!want(receiver.trace(traceId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const spans = receiver.trace(traceId);
    // The tree without database and Koa middleware spans, to stay readable.
    const readable = (s: ReceivedSpan) => !/^(pg\.|middleware|router)/.test(s.name);
    console.log(`trace ${traceId}: ${spans.length} spans from ${[...new Set(spans.map((s) => s.service))].join(', ')}\n${spanTree(spans, readable)}`);

    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (s: ReceivedSpan): ReceivedSpan[] => {
      const out: ReceivedSpan[] = [];
      for (let p = s.parentSpanId ? byId.get(s.parentSpanId) : undefined; p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p);
      return out;
    };
    const roots = spans.filter((s) => !s.parentSpanId);
    expect(roots).toHaveLength(1);
    const root = roots[0];
    // Server spans are named by the route template that answered (the gateway's by the one data reported).
    const template = '/api/v1/db/data/:orgs/:baseName/:tableName';
    expect(root).toMatchObject({ service: 'tabula-gateway', kind: SERVER, name: `POST ${template}` });
    const dataServer = spans.find((s) => s.service === 'tabula-data' && s.kind === SERVER)!;
    expect(dataServer.name).toBe(`POST ${template}`);
    expect(spans.filter((s) => s.kind === SERVER && !s.name.includes(' /')).map((s) => `${s.service} ${s.name}`)).toEqual([]);
    expect(spans.filter((s) => /^middleware\b/.test(s.name)).map((s) => s.name)).toEqual([]);
    expect(ancestors(dataServer).map((s) => s.service)).toContain('tabula-gateway');
    const deliver = spans.find((s) => s.service === 'tabula-hooks' && s.name === 'deliver webhook')!;
    expect(deliver).toBeDefined();
    // The delivery runs later, in the worker, inside the trace of the event's consumer.
    const consumer = ancestors(deliver).find((s) => s.service === 'tabula-hooks' && s.kind === CONSUMER)!;
    expect(consumer.name).toMatch(/records/);
    // Across the bus: the consumer's parent chain reaches data's request.
    expect(ancestors(consumer).map((s) => s.spanId)).toContain(dataServer.spanId);
    const webhook = spans.find((s) => s.service === 'tabula-hooks' && s.kind === CLIENT && s.parentSpanId === deliver.spanId);
    expect(webhook).toBeDefined();
    // Every span of the request's chain is in this one trace.
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));
  }, 60_000);
});
