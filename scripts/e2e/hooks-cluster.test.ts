import { createTestDatabase, describeWithBackend, startTestCluster, waitHealthy, type TestCluster, type TestDatabase } from '@tabula/testing';
import { Sink, call, setupTable } from './hooks-e2e.helpers';

/**
 * Cluster mode: the hooks service is killed (SIGKILL) while deliveries are
 * pending — once before the events reach it, once in the middle of slow
 * deliveries. After a restart every delivery arrives; counted by distinct
 * `webhook-id`, each record is delivered exactly once and none is lost.
 */
describeWithBackend('redis', 'hooks survive a crash of the hooks process (cluster mode)', () => {
  let database: TestDatabase;
  let cluster: TestCluster;
  const sink = new Sink();
  let t: Awaited<ReturnType<typeof setupTable>>;

  const api = (method: string, path: string, body?: unknown) => call(cluster.gatewayUrl, t.token, method, path, body);
  const insert = async (names: string[]) => {
    const res = await api('POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, names.map((Name) => ({ Name })));
    expect(res.status).toBe(200);
  };
  /** Distinct deliveries at a path, keyed by webhook-id, waiting until `count` exist. */
  const distinct = async (path: string, count: number) => {
    const until = Date.now() + 45_000;
    for (;;) {
      const ids = new Set(sink.at(path).map((r) => r.headers['webhook-id']));
      if (ids.size >= count || Date.now() > until) return ids;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const names = (path: string) => new Set(sink.at(path).flatMap((r) => (JSON.parse(r.body).data.rows as { Name: string }[]).map((row) => row.Name)));

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    cluster = await startTestCluster(['auth', 'meta', 'data', 'hooks'], database.url, { SVC_ALLOW_LOCAL_HOOKS: 'true', SVC_HOOKS_POLL_MS: '50' });
    t = await setupTable(cluster.gatewayUrl, `hooks-cluster-${Date.now()}@example.com`);
    const hook = await api('POST', `/api/v1/db/meta/tables/${t.tableId}/hooks`, {
      title: 'crash', event: 'after', operation: 'insert', version: 'v3', retry_interval: 200, timeout: 2000,
      notification: { type: 'URL', payload: { method: 'POST', path: `${sink.url}/crash` } },
    });
    expect(hook.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
    await sink.stop();
  });

  it('events committed while hooks is down are all delivered after it restarts', async () => {
    await cluster.kill('hooks');
    for (let i = 0; i < 10; i += 1) await insert([`down-${i}`]);
    await cluster.restart('hooks');
    await waitHealthy(`${cluster.serviceUrl('hooks')}/readyz`);
    const ids = await distinct('/crash', 10);
    expect(ids.size).toBe(10);
    expect([...names('/crash')].filter((n) => n.startsWith('down-')).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `down-${i}`).sort());
  }, 90_000);

  it('deliveries in flight when hooks dies complete once each after the restart', async () => {
    const before = new Set(sink.at('/crash').map((r) => r.headers['webhook-id'])).size;
    sink.delayMs = 400;
    for (let i = 0; i < 10; i += 1) await insert([`flight-${i}`]);
    await new Promise((r) => setTimeout(r, 300));
    await cluster.kill('hooks');
    sink.delayMs = 0;
    await cluster.restart('hooks');
    const ids = await distinct('/crash', before + 10);
    expect(ids.size).toBe(before + 10);
    const flight = [...names('/crash')].filter((n) => n.startsWith('flight-'));
    expect(flight.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `flight-${i}`).sort());
  }, 90_000);
});
