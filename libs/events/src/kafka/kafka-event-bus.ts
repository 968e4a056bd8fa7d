import { Kafka, logLevel, Partitioners } from 'kafkajs';
import type { Admin, KafkaConfig, LogEntry, Message, Producer, SASLOptions } from 'kafkajs';
import type { EventBus, EventBusConfig, EventLogger, PublishInput, SubscribeOptions, Subscription } from '../event-bus';
import { toEnvelope } from '../envelope';
import { ephemeralGroupCreatedAt, type GroupExpiry } from '../namespaced-event-bus';
import { defaultBackoff } from '../delivery/retry';
import { withTimeout } from '../delivery/with-timeout';
import { fallbackLogger } from '../logger';
import { toKafkaMessage } from './kafka-codec';
import { KafkaSubscription } from './kafka-subscription';
import { KafkaTopics } from './kafka-topics';
import type { KafkaBusOptions } from '../bus-options';

export type { KafkaBusOptions } from '../bus-options';


/** The bus's long-lived clients, connected on first use. */
type Client = 'producer' | 'admin' | 'quietAdmin';

const defaults: KafkaBusOptions = {
  partitionsConsumedConcurrently: 4,
  sessionTimeout: 30_000,
  fetchMaxWaitMs: 1000,
  allowAutoTopicCreation: false,
  publishTimeoutMs: 30_000,
  topics: { create: true, partitions: 6 },
};

/**
 * Kafka adapter (kafkajs). Producer: idempotent with acks=all and one request
 * in flight, so retries neither duplicate nor reorder a partition. Key = table
 * id picks the partition, which gives order per table. Consumer: one kafkajs
 * consumer per subscription, groupId = group, pipelined through a KeyedRunner
 * with its own commits (KafkaSubscription). Topics are created by the bus
 * (KafkaTopics) before their first use, never by the broker's auto-create.
 */
export class KafkaEventBus implements EventBus, GroupExpiry {
  private readonly options: KafkaBusOptions;
  private readonly logger: EventLogger;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly quietAdmin: Admin;
  private readonly connections = new Map<Client, Promise<void>>();
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly topics: KafkaTopics;
  private closed = false;

  constructor(private readonly config: EventBusConfig & { kafkaBrokers: string[] }) {
    this.options = { ...defaults, ...config.kafka, topics: { ...defaults.topics, ...config.kafka?.topics } };
    this.logger = config.logger ?? fallbackLogger;
    const clientConfig: KafkaConfig = {
      clientId: config.clientId,
      brokers: config.kafkaBrokers,
      ssl: this.options.ssl,
      sasl: this.options.sasl as SASLOptions | undefined,
    };
    this.kafka = new Kafka({ ...clientConfig, logLevel: logLevel.WARN, logCreator: () => (entry) => this.log(entry) });
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: this.options.allowAutoTopicCreation,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    this.admin = this.kafka.admin();
    this.quietAdmin = new Kafka({ ...clientConfig, logLevel: logLevel.NOTHING }).admin();
    this.topics = new KafkaTopics(
      async () => { await this.connect('quietAdmin'); return this.quietAdmin; },
      this.options.topics,
      this.logger,
    );
  }

  /** Creates the topics that do not exist yet (a service's start-up calls it with every topic). */
  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    await withTimeout(this.topics.ensure(topics), this.options.publishTimeoutMs, 'kafka: creating topics timed out');
  }

  async publish(messages: PublishInput[]): Promise<void> {
    await this.ensureTopics(messages.map((message) => message.topic));
    await this.connect('producer');
    const byTopic = new Map<string, Message[]>();
    for (const input of messages) {
      const list = byTopic.get(input.topic) ?? [];
      list.push(toKafkaMessage(toEnvelope(input, this.config.clientId)));
      byTopic.set(input.topic, list);
    }
    const topicMessages = [...byTopic].map(([topic, list]) => ({ topic, messages: list }));
    await withTimeout(this.producer.sendBatch({ topicMessages, acks: -1 }), this.options.publishTimeoutMs, 'kafka: publish timed out');
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    await this.ensureTopics(options.topics);
    const consumer = this.kafka.consumer({
      groupId: options.group,
      sessionTimeout: this.options.sessionTimeout,
      maxWaitTimeInMs: this.options.fetchMaxWaitMs,
      allowAutoTopicCreation: this.options.allowAutoTopicCreation,
    });
    await consumer.connect();
    await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning !== false });
    const subscription = new KafkaSubscription({
      consumer,
      handler: options.handler,
      handleBatch: options.handleBatch,
      maxBatch: options.maxBatch,
      maxInFlight: options.maxInFlight ?? this.config.maxInFlight ?? 16,
      ordered: options.ordered,
      drainTimeoutMs: Math.max(1000, this.options.sessionTimeout / 2),
      logger: this.logger,
      backoff: { ...defaultBackoff, ...this.config.retry },
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
      afterClose: options.ephemeral ? () => this.deleteGroup(options.group) : undefined,
    });
    await subscription.start(this.options.sessionTimeout);
    this.subscriptions.add(subscription);
    return { close: () => subscription.close().finally(() => this.subscriptions.delete(subscription)) };
  }

  /**
   * Destroys abandoned ephemeral groups (see {@link GroupExpiry}): Kafka's own
   * membership is the sign of life, so a group old enough with no member left
   * (state Empty or Dead) is deleted. Topics do not matter: group ids are global.
   */
  async expireGroups(_topics: string[], groupPrefix: string, idleMs: number): Promise<string[]> {
    await this.connect('admin');
    const { groups } = await this.admin.listGroups();
    const candidates = groups.map((group) => group.groupId).filter((id) => {
      const created = ephemeralGroupCreatedAt(id, groupPrefix);
      return created !== undefined && Date.now() - created >= idleMs;
    });
    if (candidates.length === 0) return [];
    const described = await this.admin.describeGroups(candidates);
    const abandoned = described.groups.filter((group) => group.state === 'Empty' || group.state === 'Dead').map((group) => group.groupId);
    if (abandoned.length) await this.admin.deleteGroups(abandoned);
    return abandoned;
  }

  async ping(): Promise<void> {
    await this.connect('admin');
    await withTimeout(this.admin.describeCluster(), 5000, 'kafka: describeCluster timed out');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.connections.has('producer')) await this.producer.disconnect();
    if (this.connections.has('admin')) await this.admin.disconnect();
    if (this.connections.has('quietAdmin')) await this.quietAdmin.disconnect();
  }

  private async connect(client: Client): Promise<void> {
    this.assertOpen();
    let connecting = this.connections.get(client);
    if (!connecting) {
      connecting = this[client].connect();
      this.connections.set(client, connecting);
      // A failed connect is retried by the next call instead of being cached.
      connecting.catch(() => this.connections.delete(client));
    }
    await withTimeout(connecting, this.options.publishTimeoutMs, `kafka: ${client} connect timed out`);
  }

  private async deleteGroup(group: string): Promise<void> {
    try {
      await this.connect('admin');
      await this.admin.deleteGroups([group]);
    } catch (error) {
      this.logger.warn({ err: error, group }, 'could not delete ephemeral kafka consumer group');
    }
  }

  /**
   * kafkajs logs every error answer of the protocol ("Response Heartbeat ...:
   * the group is rebalancing") at ERROR, although the client handles most of
   * them (rejoins, retries); what it cannot handle surfaces as an error of the
   * operation, logged or thrown on its own. Those answers are logged at info.
   */
  private log({ level, log }: LogEntry): void {
    const { message, ...extra } = log;
    if (level === logLevel.ERROR && message.startsWith('Response ')) this.logger.info({ kafka: extra }, message);
    else if (level === logLevel.ERROR || level === logLevel.NOTHING) this.logger.error({ kafka: extra }, message);
    else if (level === logLevel.WARN) this.logger.warn({ kafka: extra }, message);
    else this.logger.info({ kafka: extra }, message);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event bus is closed');
  }
}
