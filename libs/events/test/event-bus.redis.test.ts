import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus } from '@tabula/events';
import type { EventBus, EventLogger, EventMessage } from '@tabula/events';
import { captureLogger, eventBusContract, eventually } from './event-bus.contract';

/** Every stream of this run lives under one prefix, deleted at the end. */
const prefix = `tabula-test:${randomUUID().slice(0, 8)}:`;
const redisOptions = { streamPrefix: prefix, blockMs: 2000, claimIdleMs: 500, claimIntervalMs: 200 };

function makeBus(logger: EventLogger, redis: Record<string, unknown> = {}): EventBus {
  return createEventBus({
    kind: 'redis',
    redisUrl: backendUrl('redis'),
    clientId: 'contract',
    logger,
    retry: { initialMs: 20, maxMs: 200 },
    redis: { ...redisOptions, ...redis },
  });
}

describeWithBackend('redis', 'EventBus contract: Redis Streams', () => {
  const admin = createClient({ url: backendUrl('redis') });
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length) await admin.del(keys);
    await admin.close();
  });

  eventBusContract((logger) => makeBus(logger));

  describe('Redis specifics', () => {
    let bus: EventBus;
    let topic: string;
    beforeEach(() => {
      bus = makeBus(captureLogger());
      topic = `t.${randomUUID()}`;
    });
    afterEach(async () => {
      await bus.close();
    });

    it('takes over entries a dead consumer left pending (XAUTOCLAIM)', async () => {
      const stream = prefix + topic;
      await admin.xGroupCreate(stream, 'workers', '0', { MKSTREAM: true });
      await bus.publish([{ topic, key: 'k', type: 't', payload: new Uint8Array([1]), id: 'orphan' }]);
      // A consumer reads the entry and dies before XACK.
      await admin.xReadGroup('workers', 'dead-consumer', [{ key: stream, id: '>' }], { COUNT: 10 });
      const got: EventMessage[] = [];
      const subscription = await bus.subscribe({ group: 'workers', topics: [topic], handler: async (m) => void got.push(m) });
      await eventually(() => expect(got.map((m) => m.id)).toEqual(['orphan']), 5000);
      await eventually(async () => expect(await admin.xPending(stream, 'workers')).toMatchObject({ pending: 0 }));
      await subscription.close();
    });

    it('handles one key\'s entries concurrently in an unordered subscription, one at a time otherwise', async () => {
      const peakOf = async (ordered: boolean) => {
        let running = 0;
        let peak = 0;
        let done = 0;
        const subscription = await bus.subscribe({
          group: `g-${ordered}`, topics: [topic], ordered,
          handler: async () => {
            running++;
            peak = Math.max(peak, running);
            await new Promise((r) => setTimeout(r, 50));
            running--;
            done++;
          },
        });
        await eventually(() => expect(done).toBe(4), 5000);
        await subscription.close();
        return peak;
      };
      await bus.publish(['a', 'b', 'c', 'd'].map((id) => ({ topic, key: 'one-table', type: 't', payload: new Uint8Array([1]), id })));
      expect(await peakOf(true)).toBe(1);
      expect(await peakOf(false)).toBeGreaterThan(1);
    });

    it('acknowledges handled entries and removes its consumer on close', async () => {
      const stream = prefix + topic;
      const got: string[] = [];
      const subscription = await bus.subscribe({ group: 'acks', topics: [topic], handler: async (m) => void got.push(m.id) });
      await bus.publish([{ topic, key: 'k', type: 't', payload: new Uint8Array([1]) }]);
      await eventually(() => expect(got).toHaveLength(1));
      await subscription.close();
      expect((await admin.xPending(stream, 'acks')).pending).toBe(0);
      expect(await admin.xInfoConsumers(stream, 'acks')).toHaveLength(0);
    });

    it('acknowledges the entries of one read with one XACK; a failed handler\'s entry stays pending', async () => {
      const stream = prefix + topic;
      // The bus's command connection (real Redis), observed: which XACKs it sends.
      const commands = (bus as unknown as { commands: { xAck: (...args: unknown[]) => Promise<number> } }).commands;
      const xAck = jest.spyOn(commands, 'xAck');
      await bus.publish(Array.from({ length: 20 }, (_, i) => ({ topic, key: i === 7 ? 'poison' : `k${i % 3}`, type: 't', payload: new Uint8Array([i]), id: `m${i}` })));
      const got: string[] = [];
      const subscription = await bus.subscribe({
        // 20 entries fit one read (COUNT = min(batchSize 32, maxInFlight)).
        group: 'batched-acks', topics: [topic], maxInFlight: 32,
        handler: async (m) => {
          if (m.id === 'm7') throw new Error('not now');
          got.push(m.id);
        },
      });
      await eventually(() => expect(got).toHaveLength(19));
      await eventually(async () => expect((await admin.xPending(stream, 'batched-acks')).pending).toBe(1));
      // The 19 handled entries, each acked exactly once, in one command (they were read together).
      const acked = xAck.mock.calls.flatMap((call) => call[2] as string[]);
      expect(xAck).toHaveBeenCalledTimes(1);
      expect(acked).toHaveLength(19);
      expect(new Set(acked).size).toBe(19);
      const pending = await admin.xPendingRange(stream, 'batched-acks', '-', '+', 10);
      expect(acked).not.toContain(pending[0].id);
      await subscription.close();
      xAck.mockRestore();
    });

    it('lingerMs: after a read that was not full, waits before reading again, so what arrives meanwhile comes in one read and one XACK', async () => {
      const commands = (bus as unknown as { commands: { xAck: (...args: unknown[]) => Promise<number> } }).commands;
      const xAck = jest.spyOn(commands, 'xAck');
      /** m0 alone on an idle stream, then m1..m5 20 ms apart: the XACKs' id counts. */
      const run = async (group: string, lingerMs: number) => {
        xAck.mockClear();
        const own = `${topic}.${group}`;
        const got: string[] = [];
        const subscription = await bus.subscribe({ group, topics: [own], maxInFlight: 32, lingerMs, handler: async (m) => void got.push(m.id) });
        await new Promise((r) => setTimeout(r, 100)); // the read is blocked on the idle stream
        await bus.publish([{ topic: own, key: 'k', type: 't', payload: new Uint8Array([0]), id: `${group}-m0` }]);
        await eventually(() => expect(got).toHaveLength(1), 5000);
        for (let i = 1; i <= 5; i += 1) {
          await bus.publish([{ topic: own, key: 'k', type: 't', payload: new Uint8Array([i]), id: `${group}-m${i}` }]);
          await new Promise((r) => setTimeout(r, 20));
        }
        await eventually(() => expect(got).toHaveLength(6), 5000);
        await eventually(async () => expect((await admin.xPending(prefix + own, group)).pending).toBe(0));
        await subscription.close();
        return { acks: xAck.mock.calls.map((call) => (call[2] as string[]).length), got };
      };
      // The idle stream's first entry is not held back by the linger: with an hour's linger it still arrives
      // (no elapsed-time bound: held back, it would not arrive before the test ends), and close() ends the wait.
      const hourGot: string[] = [];
      const hour = await bus.subscribe({ group: 'hour', topics: [`${topic}.hour`], maxInFlight: 32, lingerMs: 3_600_000, handler: async (m) => void hourGot.push(m.id) });
      await new Promise((r) => setTimeout(r, 100)); // the read is blocked on the idle stream
      await bus.publish([{ topic: `${topic}.hour`, key: 'k', type: 't', payload: new Uint8Array([0]), id: 'hour-m0' }]);
      await eventually(() => expect(hourGot).toEqual(['hour-m0']), 5000);
      await hour.close();
      const lingering = await run('lingering', 400);
      // m0 in its own read; m1..m5, published during the 400 ms wait after it, in the next one.
      expect(lingering.acks).toEqual([1, 5]);
      expect(lingering.got).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5'].map((m) => `lingering-${m}`));
      // Without it, entries published 20 ms apart come in separate reads.
      const eager = await run('eager', 0);
      expect(eager.acks.length).toBeGreaterThanOrEqual(4);
      expect(eager.acks.reduce((a, b) => a + b, 0)).toBe(6);
      xAck.mockRestore();
    });

    it('destroys an ephemeral group on close', async () => {
      const subscription = await bus.subscribe({ group: 'ephemeral', topics: [topic], fromBeginning: false, ephemeral: true, handler: async () => undefined });
      expect(await admin.xInfoGroups(prefix + topic)).toHaveLength(1);
      await subscription.close();
      expect(await admin.xInfoGroups(prefix + topic)).toHaveLength(0);
    });

    it('caps each stream approximately at maxLen', async () => {
      const capped = makeBus(captureLogger(), { maxLen: 10 });
      const payload = new Uint8Array([1]);
      for (let i = 0; i < 5; i++) await capped.publish(Array.from({ length: 100 }, () => ({ topic, key: 'k', type: 't', payload })));
      expect(await admin.xLen(prefix + topic)).toBeLessThan(500);
      await capped.close();
    });

    it('fails ping quickly when Redis is unreachable', async () => {
      const down = createEventBus({ kind: 'redis', redisUrl: 'redis://127.0.0.1:1', clientId: 'down', logger: captureLogger(), redis: { commandTimeoutMs: 300 } });
      await expect(down.ping()).rejects.toThrow(/timed out/);
      await down.close();
    });
  });
});
