import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus, defineConsumer, type EventBus } from '@tabula/events';
import { captureLogger, eventually } from './event-bus.contract';

const prefix = `tabula-test:${randomUUID().slice(0, 8)}:`;

/** The batch form of defineConsumer on Redis Streams (the memory bus is covered beside define-consumer.ts). */
describeWithBackend('redis', 'defineConsumer batch form: Redis Streams', () => {
  const admin = createClient({ url: backendUrl('redis') });
  let bus: EventBus;
  beforeAll(async () => {
    await admin.connect();
  });
  beforeEach(() => {
    bus = createEventBus({ kind: 'redis', redisUrl: backendUrl('redis'), clientId: 'define-consumer', logger: captureLogger(), redis: { streamPrefix: prefix, blockMs: 200 } });
  });
  afterEach(async () => {
    await bus.close();
  });
  afterAll(async () => {
    for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length) await admin.del(keys);
    await admin.close();
  });

  it('entries of one key read while its first is handled reach handleBatch together (up to maxBatch), in order; a lone one goes to handle', async () => {
    const topic = `t.${randomUUID()}`;
    const calls: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const consumer = defineConsumer<{ bus: EventBus }>({
      name: 'x.batch', topics: [topic], delivery: { kind: 'shared', group: 'batch' }, maxBatch: 3,
      async handle(_ports, message) {
        calls.push([`single:${message.id}`]);
        if (calls.length === 1) await gate;
      },
      async handleBatch(_ports, messages) {
        calls.push(messages.map((m) => `batch:${m.id}`));
      },
    });
    const running = await consumer.start({ bus });
    try {
      const publish = (ids: string[]) => bus.publish(ids.map((id) => ({ topic, key: 'k', type: 'e', id, payload: new Uint8Array([1]) })));
      await publish(['m1']);
      await eventually(() => expect(calls).toHaveLength(1));
      await publish(['m2', 'm3', 'm4', 'm5']);
      // the subscription has read them (they wait behind m1 in the open batch, at most maxBatch each)
      await eventually(async () => expect(await admin.xPending(`${prefix}${topic}`, 'batch')).toMatchObject({ pending: 5 }));
      // Pending at Redis means the reply went out, not that this process has read it: the reply to
      // this XPENDING can be handled first (CI saw m2 alone, then m3-m5, dispatched after the release).
      // A few event-loop turns and a moment let the consumer's socket be read and its entries queued.
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      await new Promise((r) => setTimeout(r, 50));
      release();
      await eventually(() => expect(calls.flat()).toHaveLength(5));
      expect(calls).toEqual([['single:m1'], ['batch:m2', 'batch:m3', 'batch:m4'], ['single:m5']]);
    } finally {
      release();
      await running.stop();
    }
  });
});
