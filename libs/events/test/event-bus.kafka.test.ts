import { Kafka, logLevel } from 'kafkajs';
import { backendUrl, describeWithBackend } from '@tabula/testing';
import { createEventBus } from '@tabula/events';
import { eventBusContract } from './event-bus.contract';

/** Runs where KAFKA_BROKERS is set (`npm run kafka:start`; .ci/run starts a broker). */
describeWithBackend('kafka', 'EventBus contract: Kafka', () => {
  const brokers = (backendUrl('kafka') ?? '').split(',').map((broker) => broker.trim());
  const admin = new Kafka({ clientId: 'contract-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    await admin.disconnect();
  });

  eventBusContract(
    (logger) => createEventBus({ kind: 'kafka', kafkaBrokers: brokers, clientId: 'contract', logger, retry: { initialMs: 20, maxMs: 200 } }),
    {
      timeoutMs: 20_000,
      settleMs: 2000,
      // Several partitions, so two members of one group both get work.
      prepareTopics: async (topics) => {
        await admin.createTopics({ waitForLeaders: true, topics: topics.map((topic) => ({ topic, numPartitions: 3 })) });
      },
    },
  );
});
