import { createTestDatabase, type TestDatabase } from '@tabula/testing';
import { Sink, call, setupTable } from './hooks-e2e.helpers';
import { sample, spawnStandalone, type SpawnedStandalone } from './observability.helpers';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/**
 * Standalone, started as `npm start` is: one access line per request at info
 * (route template, status, duration, request id, trace id; no token, no body),
 * metrics by route template, per-service event/outbox/hook/pool metrics on
 * METRICS_PORT, and no /metrics on the public port.
 */
describe('observability: access log and metrics (standalone process)', () => {
  let database: TestDatabase;
  let app: SpawnedStandalone;
  let t: Awaited<ReturnType<typeof setupTable>>;
  const sink = new Sink();

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    app = await spawnStandalone({ DATABASE_URL: database.url, SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50' }, true);
    t = await setupTable(app.url, `obs-${Date.now()}@example.com`);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    await sink.stop();
  });

  it('writes one access line per request, never a token or a body', async () => {
    const res = await fetch(`${app.url}/api/v1/db/data/noco/${t.baseId}/${t.tableId}?where=(Name,eq,secret-filter)`, {
      method: 'POST', body: JSON.stringify({ Name: 'body-secret-value' }),
      headers: { 'content-type': 'application/json', 'xc-auth': t.token, 'x-request-id': 'obs-req-1', traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const lines = app.lines().filter((l) => l.msg === 'request' && l.request_id === 'obs-req-1');
    // The gateway writes the line of the public request; the services it called inside write their own internal ones.
    const access = lines.filter((l) => !String(l.route).startsWith('/internal/'));
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({
      level: 'info', service: 'gateway', method: 'POST', status: 200, trace_id: TRACE_ID,
      route: '/api/v1/db/data/:orgs/:baseName/:tableName',
    });
    expect(typeof access[0].duration_ms).toBe('number');
    expect(app.raw()).not.toContain(t.token);
    expect(app.raw()).not.toContain('body-secret-value');
    expect(app.raw()).not.toContain('secret-filter');
    console.log(`access line: ${JSON.stringify(access[0])}`);
  }, 30_000);

  it('serves /metrics on METRICS_PORT only, labelled by route template, with per-service counters', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
    const hook = await call(app.url, t.token, 'POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'm', event: 'after', operation: 'insert', notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/m` } },
    });
    expect({ status: hook.status, body: hook.status === 200 ? undefined : hook.body }).toEqual({ status: 200, body: undefined });
    expect((await call(app.url, t.token, 'POST', `/api/v1/db/data/noco/${t.baseId}/${t.tableId}`, { Name: 'x' })).status).toBe(200);
    await sink.waitFor('/m', 1);
    await new Promise((r) => setTimeout(r, 300));
    const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    const route = '/api/v1/db/data/:orgs/:baseName/:tableName';
    expect(sample(text, 'http_server_duration_seconds_count', { service: 'gateway', route, method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/service="gateway"[^\n]*route="unmatched"[^\n]*status="200"/);
    // the in-flight gauge (the chart's HPA pods metric): present for the gateway, and back to 0 once answered
    expect(sample(text, 'tabula_http_requests_in_flight', { service: 'gateway' })).toBe(0);
    expect(sample(text, 'events_published_total', { service: 'data', topic: 'records', type: 'records.after.insert' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'events_consumed_total', { service: 'hooks', topic: 'records', type: 'records.after.insert' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'events_failed_total', { service: 'hooks' }) ?? 0).toBe(0);
    expect(sample(text, 'hook_deliveries_total', { service: 'hooks', outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_oldest_unsent_age_seconds', { service: 'data', schema: 'data' })).toBe(0);
    expect(sample(text, 'outbox_unsent_events', { service: 'meta' })).toBe(0);
    expect(sample(text, 'db_pool_connections', { service: 'data', pool: 'meta', state: 'max' })).toBeGreaterThanOrEqual(10);
    console.log(text.split('\n').filter((l) => /^(events_|hook_deliveries|outbox_|db_pool)/.test(l)).join('\n'));
  }, 40_000);

  it('an open change feed stream is a feed subscription, not a request in flight: its access line is written when it opens', async () => {
    const controller = new AbortController();
    const res = await fetch(`${app.url}/api/v1/events/tables/${t.tableId}`, {
      headers: { 'xc-auth': t.token, 'x-request-id': 'obs-stream-1', accept: 'text/event-stream' }, signal: controller.signal,
    });
    try {
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry:');
      await new Promise((r) => setTimeout(r, 300));
      const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
      expect(sample(text, 'tabula_feed_subscriptions', { service: 'realtime' })).toBe(1);
      expect(sample(text, 'tabula_http_requests_in_flight', { service: 'gateway' })).toBe(0);
      expect(sample(text, 'tabula_http_requests_in_flight', { service: 'realtime' })).toBe(0);
      const access = app.lines().filter((l) => l.msg === 'request' && l.request_id === 'obs-stream-1' && l.service === 'gateway');
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({ method: 'GET', status: 200, route: '/api/v1/events/tables/:tableId' });
    } finally {
      controller.abort();
    }
    // the client gone, the subscription goes
    const until = Date.now() + 5_000;
    let open = 1;
    while (open !== 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      open = sample(await (await fetch(`${app.metricsUrl}/metrics`)).text(), 'tabula_feed_subscriptions', { service: 'realtime' }) ?? -1;
    }
    expect(open).toBe(0);
  }, 30_000);
});

describe('observability switches: SVC_ACCESS_LOG=false, SVC_METRICS_PUBLIC=true', () => {
  let database: TestDatabase;
  let app: SpawnedStandalone;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await spawnStandalone({ DATABASE_URL: database.url, SVC_ACCESS_LOG: 'false', SVC_METRICS_PUBLIC: 'true' }, false);
  }, 90_000);
  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it('writes no access lines and serves /metrics on the public port', async () => {
    await setupTable(app.url, `obs-off-${Date.now()}@example.com`);
    const res = await fetch(`${app.url}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('http_server_duration_seconds');
    expect(app.lines().filter((l) => l.msg === 'request')).toEqual([]);
  }, 30_000);
});
