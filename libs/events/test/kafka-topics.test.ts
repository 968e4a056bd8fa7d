import { randomBytes } from 'node:crypto';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus, type EventBus } from '@tabula/events';

/**
 * The Kafka bus creates its topics itself, with the configured partitions and
 * min.insync.replicas, before it publishes or subscribes (the test broker runs
 * with auto.create.topics.enable=false, so nothing else could create them), and
 * with topic creation off it refuses to use a topic that does not exist.
 */
describeWithBackend('kafka', 'Kafka topics are created by the bus, not by the broker', () => {
  const brokers = (backendUrl('kafka') ?? '').split(',').map((broker) => broker.trim());
  const admin = new Kafka({ clientId: 'topics-test', brokers, logLevel: logLevel.NOTHING }).admin();
  const buses: EventBus[] = [];
  const bus = (topics: Record<string, unknown>) => {
    const created = createEventBus({ kind: 'kafka', kafkaBrokers: brokers, clientId: 'topics-test', kafka: { topics } });
    buses.push(created);
    return created;
  };
  const name = (what: string) => `t${randomBytes(4).toString('hex')}.${what}`;
  const minInsync = async (topic: string) => {
    const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }] });
    return resources[0].configEntries.find((entry) => entry.configName === 'min.insync.replicas')?.configValue;
  };
  const partitions = async (topic: string) => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions;

  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await admin.disconnect();
  });

  it('publish creates a missing topic with the configured partitions and min.insync.replicas, then delivers', async () => {
    const topic = name('records');
    await bus({ partitions: 4, minInsyncReplicas: 1 }).publish([{ topic, key: 'tbl1', type: 'x', payload: new Uint8Array([1]) }]);
    const parts = await partitions(topic);
    expect(parts).toHaveLength(4);
    // Default replication factor: 3, or the number of brokers when fewer.
    const brokerCount = (await admin.describeCluster()).brokers.length;
    expect(parts.map((p) => p.replicas.length)).toEqual(parts.map(() => Math.min(3, brokerCount)));
    expect(await minInsync(topic)).toBe('1');
    const offsets = await admin.fetchTopicOffsets(topic);
    expect(offsets.reduce((sum, p) => sum + Number(p.high), 0)).toBe(1);
  });

  it('subscribe creates the topic too, and ensureTopics creates several at once', async () => {
    const [a, b, c] = [name('a'), name('b'), name('c')];
    const subscription = await bus({ partitions: 2 }).subscribe({ group: name('g'), topics: [a], handler: async () => undefined });
    await subscription.close();
    expect(await partitions(a)).toHaveLength(2);
    await bus({ partitions: 3 }).ensureTopics?.([b, c]);
    expect((await admin.listTopics()).filter((t) => t === b || t === c).sort()).toEqual([b, c].sort());
    expect(await partitions(c)).toHaveLength(3);
  });

  it('with topic creation off, a missing topic is an error that says so, and nothing is created', async () => {
    const topic = name('missing');
    await expect(bus({ create: false }).publish([{ topic, key: 'k', type: 'x', payload: new Uint8Array() }])).rejects.toThrow(/do not exist and KAFKA_TOPIC_CREATE=false/);
    expect(await admin.listTopics()).not.toContain(topic);
  });
});
