import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus, type EventBus, type EventMessage, type NamespacedEventBus } from '@tabula/events';
import { captureLogger, delay, eventually } from './event-bus.contract';

const run = randomUUID().slice(0, 8);
const prefixA = `t${run}a`;
const prefixB = `t${run}b`;

function deployment(prefix: string, ttlMs = 15 * 60_000): NamespacedEventBus {
  return createEventBus({
    kind: 'redis', redisUrl: backendUrl('redis'), clientId: prefix, logger: captureLogger(),
    redis: { blockMs: 200 }, namespace: { prefix, ephemeralGroupTtlMs: ttlMs, sweepIntervalMs: 60_000 },
  }) as NamespacedEventBus;
}

const publishOne = (bus: EventBus, id: string) => bus.publish([{ topic: 'records', key: 'k', type: 'records.after.insert', payload: new Uint8Array([1]), id }]);

/** Two deployments (different EVENT_TOPIC_PREFIX) on one Redis. */
describeWithBackend('redis', 'EVENT_TOPIC_PREFIX: deployments sharing one Redis', () => {
  const admin = createClient({ url: backendUrl('redis') });
  const buses: EventBus[] = [];
  beforeAll(async () => { await admin.connect(); });
  afterEach(async () => { await Promise.all(buses.splice(0).map((bus) => bus.close())); });
  afterAll(async () => {
    for (const prefix of [prefixA, prefixB]) {
      for await (const keys of admin.scanIterator({ MATCH: `${prefix}.*`, COUNT: 100 })) if (keys.length) await admin.del(keys);
    }
    await admin.close();
  });

  it('never see each other\'s events, with the same topic and group names', async () => {
    const a = deployment(prefixA);
    const b = deployment(prefixB);
    buses.push(a, b);
    const got: Record<string, EventMessage[]> = { aWorkers: [], bWorkers: [], aBroadcast: [], bBroadcast: [] };
    await a.subscribe({ group: 'workers', topics: ['records'], handler: async (m) => void got.aWorkers.push(m) });
    await b.subscribe({ group: 'workers', topics: ['records'], handler: async (m) => void got.bWorkers.push(m) });
    await a.subscribe({ group: `gw-${randomUUID()}`, topics: ['records'], ephemeral: true, fromBeginning: false, handler: async (m) => void got.aBroadcast.push(m) });
    await b.subscribe({ group: `gw-${randomUUID()}`, topics: ['records'], ephemeral: true, fromBeginning: false, handler: async (m) => void got.bBroadcast.push(m) });
    for (let i = 0; i < 5; i++) await publishOne(a, `a-${i}`);
    for (let i = 0; i < 3; i++) await publishOne(b, `b-${i}`);
    await eventually(() => {
      expect(got.aWorkers.map((m) => m.id).sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4']);
      expect(got.aBroadcast.map((m) => m.id).sort()).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4']);
      expect(got.bWorkers.map((m) => m.id).sort()).toEqual(['b-0', 'b-1', 'b-2']);
      expect(got.bBroadcast.map((m) => m.id).sort()).toEqual(['b-0', 'b-1', 'b-2']);
    });
    await delay(500);
    expect(got.aWorkers.length + got.bWorkers.length).toBe(8);
    expect(got.aWorkers[0].topic).toBe('records');
    expect(await admin.xLen(`${prefixA}.records`)).toBe(5);
    expect(await admin.xLen(`${prefixB}.records`)).toBe(3);
    const groupsA = (await admin.xInfoGroups(`${prefixA}.records`)).map((g) => String(g.name));
    expect(groupsA.every((name) => name.startsWith(`${prefixA}.`))).toBe(true);
    expect(groupsA).toContain(`${prefixA}.workers`);
  });

  it('removes an ephemeral group and its alive key when the subscription closes', async () => {
    const a = deployment(prefixA);
    buses.push(a);
    const sub = await a.subscribe({ group: 'closing', topics: ['auth'], ephemeral: true, fromBeginning: false, handler: async () => undefined });
    const [group] = (await admin.xInfoGroups(`${prefixA}.auth`)).map((g) => String(g.name)).filter((n) => n.endsWith('.closing'));
    expect(group).toMatch(new RegExp(`^${prefixA}\\.ephemeral\\.[0-9a-z]+\\.closing$`));
    expect(await admin.exists(`${group}:alive`)).toBe(1);
    await sub.close();
    expect((await admin.xInfoGroups(`${prefixA}.auth`)).map((g) => String(g.name))).not.toContain(group);
    expect(await admin.exists(`${group}:alive`)).toBe(0);
  });

  it('a live process destroys ephemeral groups abandoned by dead processes, and nothing else', async () => {
    const stream = `${prefixA}.meta`;
    const old = (Date.now() - 60_000).toString(36);
    // Left behind by processes killed with SIGKILL: no subscription refreshes their alive key.
    await admin.xGroupCreate(stream, `${prefixA}.ephemeral.${old}.gateway-dead`, '$', { MKSTREAM: true });
    await admin.xGroupCreate(stream, `${prefixA}.ephemeral.${old}.base-access-dead`, '$', { MKSTREAM: true });
    // Another deployment's abandoned group and this deployment's durable group: never touched.
    await admin.xGroupCreate(`${prefixB}.meta`, `${prefixB}.ephemeral.${old}.gateway-dead`, '$', { MKSTREAM: true });
    await admin.xGroupCreate(stream, `${prefixA}.data-meta`, '$', { MKSTREAM: true });

    const live = deployment(prefixA, 600);
    buses.push(live);
    await live.subscribe({ group: 'gateway-live', topics: ['meta'], ephemeral: true, fromBeginning: false, handler: async () => undefined });
    await delay(900); // the live group is now older than the TTL too, but keeps its alive key fresh
    const destroyed = await live.expireAbandonedGroups();
    expect(destroyed.sort()).toEqual([`${prefixA}.ephemeral.${old}.base-access-dead`, `${prefixA}.ephemeral.${old}.gateway-dead`]);
    const left = (await admin.xInfoGroups(stream)).map((g) => String(g.name)).sort();
    expect(left).toHaveLength(2);
    expect(left[0]).toBe(`${prefixA}.data-meta`);
    expect(left[1]).toMatch(/\.gateway-live$/);
    expect((await admin.xInfoGroups(`${prefixB}.meta`)).map((g) => String(g.name))).toEqual([`${prefixB}.ephemeral.${old}.gateway-dead`]);
  });
});
