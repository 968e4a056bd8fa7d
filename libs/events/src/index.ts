/**
 * @tabula/events: the message bus (memory, Redis Streams, Kafka adapters behind
 * one interface), the transactional outbox and its relay, and idempotent
 * consumption. Services receive an `EventBus` as a port and never pick an adapter.
 */
export { createEventBus } from './create-event-bus';
export { defineConsumer, perProcessGroup, type Consumer, type ConsumerDefinition, type ConsumerDelivery, type RunningConsumer } from './define-consumer';
export type {
  BatchHandler,
  EventBus,
  EventBusConfig,
  EventHandler,
  EventHeaders,
  EventLogger,
  EventMessage,
  PublishInput,
  SubscribeOptions,
  Subscription,
} from './event-bus';
export type { BackoffOptions } from './delivery/retry';
export type { RedisBusOptions } from './redis/redis-event-bus';
export type { KafkaBusOptions } from './kafka/kafka-event-bus';
export type { KafkaSaslOptions, KafkaTlsOptions, KafkaTopicOptions } from './bus-options';
export { PUBLISHED_AT_HEADER, metadataHeaders } from './envelope';
export { runInMessageContext } from './trace-context';
export { NamespacedEventBus, ephemeralGroupCreatedAt } from './namespaced-event-bus';
export type { GroupExpiry, NamespaceOptions } from './namespaced-event-bus';
export { outboxMigration, outboxPayloadCompression } from './outbox/outbox.migration';
export { enqueueEvent } from './outbox/enqueue-event';
export { injectTraceContext } from './trace-context';
export { withOutbox, type OutboxNudge } from './outbox/with-outbox';
export { OutboxRelay } from './outbox/outbox-relay';
export type { OutboxRelayOptions } from './outbox/outbox-relay';
export { handleOnce, processedEventsMigration, pruneProcessedEvents } from './idempotent-consumer';
