/** Tuning types of the bus and its adapters (types only: every adapter and the bus interface import them). */

/** Exponential backoff between redeliveries, capped so a recovering dependency is retried soon. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/** Tuning of the Redis Streams adapter. */
export interface RedisBusOptions {
  /** Stream key = prefix + topic. Default ''. */
  streamPrefix: string;
  /**
   * Approximate cap (XADD MAXLEN ~) per stream. Entries beyond it are trimmed even
   * if a slow group has not read them yet, so keep it well above any backlog. Default 100 000.
   */
  maxLen: number;
  /** XREADGROUP BLOCK timeout; close() interrupts it with CLIENT UNBLOCK. Default 5000. */
  blockMs: number;
  /** Entries fetched per read or claim. Default 32. */
  batchSize: number;
  /** A pending entry idle this long belongs to a dead member and is reclaimed. Default 30 000. */
  claimIdleMs: number;
  /** How often each member looks for such entries. Default 5000. */
  claimIntervalMs: number;
  /** Timeout of connects and commands, so publish and ping fail instead of hanging while Redis is down. Default 5000. */
  commandTimeoutMs: number;
}

/** Tuning of the Kafka adapter. */
export interface KafkaBusOptions {
  /** Partitions a subscription handles at once; each stays strictly ordered. Default 4. */
  partitionsConsumedConcurrently: number;
  /** Group session timeout; a member silent this long loses its partitions. Default 30 000. */
  sessionTimeout: number;
  /**
   * How long the broker holds a fetch that finds nothing new (a message that
   * arrives meanwhile answers it at once). close() waits for the fetch in
   * flight, so this bounds how long a consumer takes to stop. Default 1000.
   */
  fetchMaxWaitMs: number;
  /**
   * Let the broker create unknown topics on first use. Default false: the bus
   * creates its topics itself with the settings of `topics` (brokers should run
   * with auto.create.topics.enable=false).
   */
  allowAutoTopicCreation: boolean;
  /** How the bus creates missing topics (KAFKA_TOPIC_* settings). */
  topics: KafkaTopicOptions;
  /** TLS to the brokers: true (system CAs) or PEM strings. Default none. */
  ssl?: KafkaTlsOptions;
  /** SASL authentication. Default none. */
  sasl?: KafkaSaslOptions;
  /**
   * publish() gives up after this long. The idempotent producer retries without
   * limit, and the outbox relay holds a transaction while it publishes; the rows
   * stay unpublished and are retried (a late success only means a duplicate). Default 30 000.
   */
  publishTimeoutMs: number;
}

/** TLS to Kafka brokers (PEM strings; mutual TLS with cert and key). */
export interface KafkaTlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  /** false accepts any broker certificate. Default true. */
  rejectUnauthorized?: boolean;
}

/** SASL credentials for Kafka (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512). */
export interface KafkaSaslOptions {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

/** Settings of the topics the Kafka adapter creates (before the first publish or subscribe on them). */
export interface KafkaTopicOptions {
  /** false: never create; the topics must exist (provisioned by an operator). Default true. */
  create: boolean;
  /** Partitions of a new topic: the most replicas of one consumer group that share a topic's work. Default 6. */
  partitions: number;
  /** Replication factor of a new topic. Default: 3, or the number of brokers when fewer. */
  replicationFactor?: number;
  /** min.insync.replicas of a new topic. Default: 2 when the replication factor is 3 or more, else 1. */
  minInsyncReplicas?: number;
  /** retention.ms of a new topic. Default: the broker's (7 days unless set). */
  retentionMs?: number;
}

/** The logger the bus and relay write to (pino-compatible). */
export interface EventLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Settings of the deployment namespace (NamespacedEventBus). */
export interface NamespaceOptions {
  /** The deployment prefix (EVENT_TOPIC_PREFIX): topics become `<prefix>.<topic>`, groups `<prefix>.<group>`. */
  prefix: string;
  /** An ephemeral group idle this long is abandoned (its process died without closing it). Default 15 min. */
  ephemeralGroupTtlMs?: number;
  /** How often this process looks for abandoned ephemeral groups. Default a quarter of the TTL, at most 5 min. */
  sweepIntervalMs?: number;
  logger?: EventLogger;
}
