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
  /** Let the broker create unknown topics (development); production creates them with partitions set. Default true. */
  allowAutoTopicCreation: boolean;
  /**
   * publish() gives up after this long. The idempotent producer retries without
   * limit, and the outbox relay holds a transaction while it publishes; the rows
   * stay unpublished and are retried (a late success only means a duplicate). Default 30 000.
   */
  publishTimeoutMs: number;
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
