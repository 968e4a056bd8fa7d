import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { topics } from '@tabula/contracts';
import { createEventBus, type EventBus, type EventMessage } from '@tabula/events';
import { backendUrl, createTestDatabase, describeWithBackend, startTestCluster, type TestCluster, type TestDatabase } from '@tabula/testing';
import { call, setupTable } from './hooks-e2e.helpers';

interface Deployment {
  prefix: string;
  database: TestDatabase;
  cluster: TestCluster;
  /** A consumer of this deployment's bus (as a service of it would be). */
  spy: EventBus;
  events: EventMessage[];
}

/**
 * Two Tabula clusters side by side on one PostgreSQL (separate databases) and
 * one Redis, told apart only by EVENT_TOPIC_PREFIX: each receives only its own
 * events, and each one's consumer groups live only on its own streams.
 */
describeWithBackend('redis', 'two clusters on one PostgreSQL and one Redis (EVENT_TOPIC_PREFIX)', () => {
  const run = randomUUID().slice(0, 6);
  const deployments: Deployment[] = [];
  const admin = createClient({ url: backendUrl('redis') });

  const start = async (prefix: string): Promise<Deployment> => {
    const database = await createTestDatabase();
    const cluster = await startTestCluster(['auth', 'meta', 'data'], database.url, { EVENT_TOPIC_PREFIX: prefix });
    const spy = createEventBus({ kind: 'redis', redisUrl: backendUrl('redis'), clientId: `spy-${prefix}`, namespace: { prefix } });
    const events: EventMessage[] = [];
    await spy.subscribe({ group: 'spy', topics: [topics.records, topics.meta], handler: async (m) => void events.push(m) });
    return { prefix, database, cluster, spy, events };
  };

  beforeAll(async () => {
    await admin.connect();
    deployments.push(await start(`e2e${run}a`), await start(`e2e${run}b`));
  }, 240_000);
  afterAll(async () => {
    for (const d of deployments) {
      await d.spy.close();
      await d.cluster.stop();
      await d.database.drop();
      for await (const keys of admin.scanIterator({ MATCH: `${d.prefix}.*`, COUNT: 100 })) if (keys.length) await admin.del(keys);
    }
    await admin.close();
  });

  it('each cluster receives only its own events', async () => {
    const [a, b] = deployments;
    const tableA = await setupTable(a.cluster.gatewayUrl, `a-${run}@example.com`);
    const tableB = await setupTable(b.cluster.gatewayUrl, `b-${run}@example.com`);
    const insert = async (d: Deployment, t: typeof tableA, count: number) => {
      const rows = Array.from({ length: count }, (_, i) => ({ Name: `${d.prefix}-${i}` }));
      expect((await call(d.cluster.gatewayUrl, t.token, 'POST', `/api/v1/db/data/bulk/noco/${t.baseId}/${t.tableId}`, rows)).status).toBe(200);
    };
    await insert(a, tableA, 7);
    await insert(b, tableB, 4);
    const inserted = (d: Deployment) => d.events.filter((m) => m.type === 'records.after.insert');
    const until = Date.now() + 20_000;
    while ((inserted(a).length < 1 || inserted(b).length < 1) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));

    const tablesSeen = (d: Deployment) => [...new Set(inserted(d).map((m) => m.key))];
    const metaBases = (d: Deployment) => [...new Set(d.events.filter((m) => m.type === 'meta.base.created').map((m) => m.key))];
    console.log([a, b].map((d) => `${d.prefix}: ${d.events.length} events (${inserted(d).length} record inserts, tables ${tablesSeen(d).join(',')}; bases ${metaBases(d).join(',')})`).join('\n'));
    expect(tablesSeen(a)).toEqual([tableA.tableId]);
    expect(tablesSeen(b)).toEqual([tableB.tableId]);
    expect(metaBases(a)).toEqual([tableA.baseId]);
    expect(metaBases(b)).toEqual([tableB.baseId]);
    for (const [own, other] of [[a, b], [b, a]]) {
      for (const topic of ['records', 'meta', 'auth']) {
        const groups = (await admin.xInfoGroups(`${own.prefix}.${topic}`).catch(() => [])).map((g) => String(g.name));
        expect(groups.filter((name) => !name.startsWith(`${own.prefix}.`))).toEqual([]);
        expect(groups.filter((name) => name.startsWith(`${other.prefix}.`))).toEqual([]);
      }
    }
    const auth = (await admin.xInfoGroups(`${a.prefix}.auth`)).map((g) => String(g.name));
    console.log(`groups on ${a.prefix}.auth: ${auth.join(', ')}`);
  }, 90_000);

  it('a cluster that stops (SIGTERM) removes its ephemeral groups; the other keeps its own', async () => {
    const [a, b] = deployments;
    const ephemeral = async (d: Deployment) => (await admin.xInfoGroups(`${d.prefix}.auth`)).map((g) => String(g.name)).filter((n) => n.startsWith(`${d.prefix}.ephemeral.`));
    expect((await ephemeral(b)).length).toBe(5); // base-access in auth, meta, data and gateway, plus the gateway's own
    await b.cluster.stop();
    expect(await ephemeral(b)).toEqual([]);
    expect((await ephemeral(a)).length).toBe(5);
  }, 60_000);
});
