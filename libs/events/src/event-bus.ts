import type { BackoffOptions, EventLogger, KafkaBusOptions, KafkaTopicOptions, NamespaceOptions, RedisBusOptions } from './bus-options';

/** String headers of a message (metadata, trace context, caller extras). */
export interface EventHeaders {
  [name: string]: string;
}

/** One message as delivered to a consumer. */
export interface EventMessage {
  /** Event id (UUID); stable across redeliveries, so consumers dedupe on it. */
  id: string;
  topic: string;
  /** Ordering key (usually the table id): messages of one key arrive in order. */
  key: string;
  /** Event name, e.g. `records.after.insert`. */
  type: string;
  /** Payload schema version. */
  version: number;
  payload: Uint8Array;
  /** Caller headers plus `traceparent`/`tracestate`; the `ce_*` metadata is lifted into the fields above. */
  headers: EventHeaders;
  /** ISO-8601 time the event happened (enqueue time for outbox events). */
  timestamp: string;
  /** 1 on first delivery in this process, then 2, 3... while the handler keeps failing. */
  attempt?: number;
  /** Broker position, for logs only: stream entry id, `partition:offset`, or a sequence. */
  offset?: string;
}

/** A message to publish. */
export interface PublishInput {
  topic: string;
  key: string;
  type: string;
  /** Payload schema version; defaults to 1. */
  version?: number;
  payload: Uint8Array;
  headers?: EventHeaders;
  /** Event id; a UUID is generated when absent (the outbox passes its row id). */
  id?: string;
  /** ISO-8601 time the event happened; defaults to now. */
  timestamp?: string;
}

/** Consumes one message; a rejection means "not processed, redeliver". */
export type EventHandler = (message: EventMessage) => Promise<void>;

/**
 * Consumes a run of consecutive messages of one key at once (in order); a
 * rejection means "none of them processed, redeliver them all".
 */
export type BatchHandler = (messages: EventMessage[]) => Promise<void>;

/** A running consumer; `close()` stops it and waits for in-flight handlers. */
export interface Subscription {
  close(): Promise<void>;
}

/** What to consume and how. */
export interface SubscribeOptions {
  /** Consumer group: each group gets every message (at least once); members of one group share the work. */
  group: string;
  topics: string[];
  handler: EventHandler;
  /**
   * Optional batch form of `handler`: the memory and Redis adapters hand it the
   * messages of one key that queued up while that key's previous batch ran (up to
   * `maxBatch`, in order; acknowledged together after it resolves, redelivered
   * together when it throws), Kafka as well (what one fetch brought queues behind
   * the key's running call the same way).
   */
  handleBatch?: BatchHandler;
  /** Largest batch given to `handleBatch`. Default 64. */
  maxBatch?: number;
  /** Messages this subscription accepts before they are done (Kafka: fetched and unfinished); default the bus's `maxInFlight`. */
  maxInFlight?: number;
  /**
   * Delay this consumer accepts so that messages come in fewer reads: after a
   * read that found fewer messages than it asked for, the next read waits
   * this long (ms), so what is published meanwhile arrives in one read and is
   * acknowledged with one command. A message published while the stream was
   * idle is still read at once (the blocked read returns). Default 0. Honoured
   * by the Redis adapter; the memory bus has no reads to save, and Kafka's
   * fetches already batch per partition.
   */
  lingerMs?: number;
  /** 'earliest' (default) or 'latest' for broadcast groups; only matters when the group is new. */
  fromBeginning?: boolean;
  /**
   * false: messages of one key are handled concurrently too (up to the bus's
   * maxInFlight), for consumers whose work does not depend on order (idempotent
   * per event id, as hooks ingestion). Default true: one key's messages one
   * after another. Honoured by every adapter.
   */
  ordered?: boolean;
  /**
   * Delete the group when this subscription closes. For per-process broadcast
   * groups (a unique group name, `fromBeginning: false`) that would otherwise
   * pile up in Redis/Kafka after every restart.
   */
  ephemeral?: boolean;
  /**
   * Ephemeral groups: how long the group may show no sign of life before any
   * process may destroy it (Redis: the subscription refreshes an alive key at a
   * third of this). Set by the namespaced bus from EVENT_EPHEMERAL_GROUP_TTL_MIN.
   */
  ephemeralTtlMs?: number;
}

/**
 * The message bus every service is handed at start-up. Semantics common to all
 * adapters: at-least-once delivery per group; per-key order within a group
 * member (see the Redis adapter for the multi-member caveat); a handler that
 * throws gets the same message again after a bounded backoff, and it is logged,
 * never dropped; `close()` stops consuming and waits for in-flight handlers.
 */
export interface EventBus {
  /** Resolves once the broker accepted every message. */
  publish(messages: PublishInput[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /** Throws if the backend is unreachable (used by /readyz). */
  ping(): Promise<void>;
  /**
   * Creates the given topics where the broker needs them created (Kafka; a
   * service's start-up passes every topic). Absent where topics need no
   * creation (memory, Redis Streams).
   */
  ensureTopics?(topics: string[]): Promise<void>;
  close(): Promise<void>;
}

/** Structured logger (pino's signature); console works too. */
export type { EventLogger } from './bus-options';

/** Settings of {@link createEventBus}. */
export interface EventBusConfig {
  kind: 'memory' | 'redis' | 'kafka';
  redisUrl?: string;
  kafkaBrokers?: string[];
  /** Names this process to the broker (Kafka client id, Redis consumer name prefix, `ce_source`). */
  clientId: string;
  logger?: EventLogger;
  /** Backoff between redeliveries of a message whose handler failed. */
  retry?: Partial<BackoffOptions>;
  /** Handlers running at once per subscription (different keys only). Default 16. */
  maxInFlight?: number;
  redis?: Partial<RedisBusOptions>;
  kafka?: Partial<Omit<KafkaBusOptions, 'topics'>> & { topics?: Partial<KafkaTopicOptions> };
  /** memory: messages kept per topic for groups that join later with fromBeginning. Default 1000. */
  memoryRetention?: number;
  /** The deployment's names on a shared broker (EVENT_TOPIC_PREFIX); without it topics and groups are used as given. */
  namespace?: Omit<NamespaceOptions, 'logger'>;
}
