import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus } from '@tabula/events';
import type { EventBus, EventMessage, Subscription } from '@tabula/events';
import { captureLogger, eventually } from './event-bus.contract';

const text = (message: EventMessage): string => Buffer.from(message.payload).toString();

/**
 * The Kafka subscription's pipelining and its own offset commits (beyond the
 * bus contract): on a one-partition topic, so every message shares a partition
 * whatever its key.
 */
describeWithBackend('kafka', 'Kafka subscription: pipelined fetches, commits after the handlers', () => {
  const brokers = (backendUrl('kafka') ?? '').split(',').map((broker) => broker.trim());
  const admin = new Kafka({ clientId: 'pipeline-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  let bus: EventBus;
  let topic: string;
  let group: string;
  let subscription: Subscription | undefined;

  const publish = (key: string, body: string) =>
    bus.publish([{ topic, key, type: 'records.after.insert', payload: new Uint8Array(Buffer.from(body)) }]);
  const committed = async (): Promise<number> => {
    const [entry] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    return Number(entry.partitions.find((p) => p.partition === 0)?.offset ?? -1);
  };

  /** Subscribes a handler that records what it handled and holds messages whose body is `held` until `release()`. */
  const subscribeHolding = async (held: string) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    const handled: string[] = [];
    subscription = await bus.subscribe({
      group, topics: [topic],
      handler: async (message) => {
        if (text(message) === held) await released;
        handled.push(text(message));
      },
    });
    return { handled, release };
  };

  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
  });
  beforeEach(async () => {
    bus = createEventBus({ kind: 'kafka', kafkaBrokers: brokers, clientId: 'pipeline', logger: captureLogger(), retry: { initialMs: 20, maxMs: 200 } });
    topic = `test.${randomUUID()}`;
    group = `pipeline-${randomUUID().slice(0, 8)}`;
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1 }] });
  });
  afterEach(async () => {
    await subscription?.close();
    subscription = undefined;
    await bus.close();
  });

  it('handles a message published while another key of the same partition is still being handled (no wait for the batch)', async () => {
    const { handled, release } = await subscribeHolding('slow');
    await publish('a', 'slow');
    await eventually(async () => expect(await committed()).toBe(-1), 2000);
    await publish('b', 'fast');
    // one fetch per batch, handlers awaited before the next fetch, would hold 'fast' behind 'slow'
    await eventually(() => expect(handled).toEqual(['fast']), 20_000);
    release();
    await eventually(() => expect(handled).toEqual(['fast', 'slow']), 20_000);
  }, 60_000);

  it('commits, while running, only past an unbroken run of handled messages', async () => {
    const { handled, release } = await subscribeHolding('blocked');
    for (let i = 0; i < 3; i++) await publish(`k${i}`, `m${i}`);
    // offsets 0..2 handled: the group's offset moves to 3 with no close and no further fetch
    await eventually(async () => expect(await committed()).toBe(3), 20_000);
    await publish('x', 'blocked'); // offset 3
    await publish('y', 'after'); // offset 4, another key: handled while 3 is blocked
    await eventually(() => expect(handled).toContain('after'), 20_000);
    // 4 finished but 3 did not: committing 5 would lose 3 if this member died now
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await committed()).toBe(3);
    release();
    await eventually(async () => expect(await committed()).toBe(5), 20_000);
    expect([...handled].sort()).toEqual(['after', 'blocked', 'm0', 'm1', 'm2']);
  }, 60_000);

  it('a member that closes with a handler unfinished leaves it, and only it and what follows, to the next member', async () => {
    const first: string[] = [];
    subscription = await bus.subscribe({
      group, topics: [topic],
      handler: async (message) => {
        if (text(message) === 'stuck') throw new Error('not this member'); // retried with backoff until the close
        first.push(text(message));
      },
    });
    await publish('a', 'one');
    await publish('b', 'stuck');
    await publish('c', 'three');
    await eventually(() => expect(first).toEqual(['one', 'three']), 20_000);
    await subscription.close();
    subscription = undefined;
    expect(await committed()).toBe(1);
    const second: string[] = [];
    subscription = await bus.subscribe({ group, topics: [topic], handler: async (message) => { second.push(text(message)); } });
    // 'stuck' again, and 'three' again (after it: at least once); 'one' never
    await eventually(() => expect(second).toEqual(['stuck', 'three']), 30_000);
  }, 90_000);
});
