import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import type { BusLogger, EventBus, EventMessage, PublishInput, SubscribeOptions, Subscription } from './event-bus';
import { HEADER, backoffMs, runInTraceContext, sleep, toMessage } from './envelope';

function toKafkaHeaders(message: EventMessage): Record<string, string> {
  return {
    ...message.headers,
    [HEADER.id]: message.id, [HEADER.type]: message.type, [HEADER.version]: String(message.version), [HEADER.timestamp]: message.timestamp,
  };
}

function fromKafka(topic: string, key: Buffer | null, value: Buffer | null, raw: Record<string, unknown> = {}): EventMessage {
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(raw)) if (v !== undefined) headers[name] = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
  const meta = { id: headers[HEADER.id], type: headers[HEADER.type], version: Number(headers[HEADER.version] ?? 1), timestamp: headers[HEADER.timestamp] };
  for (const name of Object.values(HEADER)) delete headers[name];
  return { ...meta, topic, key: key?.toString('utf8') ?? '', payload: new Uint8Array(value ?? Buffer.alloc(0)), headers };
}

/**
 * Kafka (production transport): an idempotent producer with acks from all
 * replicas, partitions keyed by the message key (order per table), one consumer
 * per subscription with groupId = group, offsets committed only after the
 * handler succeeded (a failing handler is retried in place).
 */
export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private producer?: Producer;
  private readonly consumers = new Set<Consumer>();

  constructor(brokers: string[], clientId: string, private readonly logger: BusLogger) {
    this.kafka = new Kafka({ clientId, brokers, logLevel: logLevel.WARN });
  }

  private async ready(): Promise<Producer> {
    if (!this.producer) {
      this.producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
      await this.producer.connect();
    }
    return this.producer;
  }

  async publish(messages: PublishInput[]): Promise<void> {
    const producer = await this.ready();
    const byTopic = new Map<string, EventMessage[]>();
    for (const input of messages) {
      const message = toMessage(input);
      byTopic.set(message.topic, [...(byTopic.get(message.topic) ?? []), message]);
    }
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic, messages: list.map((m) => ({ key: m.key, value: Buffer.from(m.payload), headers: toKafkaHeaders(m) })),
      })),
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({ groupId: options.group });
    await consumer.connect();
    for (const topic of options.topics) await consumer.subscribe({ topic, fromBeginning: options.fromBeginning !== false });
    let stopping = false;
    await consumer.run({
      autoCommit: true,
      eachMessage: async ({ topic, message }) => {
        const event = fromKafka(topic, message.key, message.value, message.headers as Record<string, unknown>);
        for (let attempt = 0; ; attempt += 1) {
          try {
            await runInTraceContext(options.handler, event);
            return;
          } catch (err) {
            if (stopping) throw err;
            this.logger.warn({ err, group: options.group, eventId: event.id, attempt }, 'event handler failed; redelivering');
            await sleep(backoffMs(attempt));
          }
        }
      },
    });
    this.consumers.add(consumer);
    const close = async () => { stopping = true; this.consumers.delete(consumer); await consumer.disconnect(); };
    return { close, stop: close };
  }

  async ping(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try { await admin.listTopics(); } finally { await admin.disconnect(); }
  }

  async close(): Promise<void> {
    for (const consumer of [...this.consumers]) await consumer.disconnect();
    this.consumers.clear();
    await this.producer?.disconnect();
  }
}
