import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import type { EventBus, EventBusConfig, EventLogger, PublishInput, SubscribeOptions, Subscription } from '../event-bus';
import { toEnvelope } from '../envelope';
import type { GroupExpiry } from '../namespaced-event-bus';
import { defaultBackoff } from '../delivery/retry';
import { withTimeout } from '../delivery/with-timeout';
import { fallbackLogger } from '../logger';
import { toStreamFields } from './redis-codec';
import { RedisSubscription } from './redis-subscription';
import { aliveKey, ensureGroups, expireEphemeralGroups } from './redis-groups';
import type { RedisClient } from './redis-groups';
import type { RedisBusOptions } from '../bus-options';

export type { RedisBusOptions } from '../bus-options';


const defaults: RedisBusOptions = {
  streamPrefix: '',
  maxLen: 100_000,
  blockMs: 5000,
  batchSize: 32,
  claimIdleMs: 30_000,
  claimIntervalMs: 5000,
  commandTimeoutMs: 5000,
};

/**
 * Redis Streams adapter: one stream per topic, one consumer group per bus group,
 * one consumer per subscription. Caveat: a stream is not partitioned, so with
 * several members in one group two messages of the same key can be handled by
 * different members at the same time; per-key order holds within one member.
 * Consumers that need strict order across replicas should use Kafka (or run one
 * member per group).
 */
export class RedisEventBus implements EventBus, GroupExpiry {
  private readonly options: RedisBusOptions;
  private readonly logger: EventLogger;
  private readonly commands: RedisClient;
  private readonly subscriptions = new Set<RedisSubscription>();
  private connecting: Promise<unknown> | undefined;
  private healthy = true;
  private closed = false;

  constructor(private readonly config: EventBusConfig & { redisUrl: string }) {
    this.options = { ...defaults, ...config.redis };
    this.logger = config.logger ?? fallbackLogger;
    this.commands = this.newClient(true);
  }

  async publish(messages: PublishInput[]): Promise<void> {
    await this.ready();
    const trim = { strategy: 'MAXLEN', strategyModifier: '~', threshold: this.options.maxLen } as const;
    // One connection pipelines the XADDs in order, so per-key order is kept.
    await Promise.all(
      messages.map((input) => {
        const fields = toStreamFields(toEnvelope(input, this.config.clientId));
        return this.commands.xAdd(this.options.streamPrefix + input.topic, '*', fields, { TRIM: trim });
      }),
    );
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    await this.ready();
    const streams = new Map(options.topics.map((topic) => [this.options.streamPrefix + topic, topic]));
    await ensureGroups(this.commands, [...streams.keys()], options.group, options.fromBeginning !== false);
    const alive = options.ephemeral && options.ephemeralTtlMs
      ? { key: aliveKey(this.options.streamPrefix, options.group), ttlMs: options.ephemeralTtlMs }
      : undefined;
    if (alive) await this.commands.set(alive.key, '1', { PX: alive.ttlMs });
    const reader = this.newClient(false);
    const readerId = await withTimeout(
      reader.connect().then(() => reader.clientId()),
      this.options.commandTimeoutMs,
      'redis: connect timed out',
    ).catch((error) => {
      reader.destroy();
      throw error;
    });
    const subscription = new RedisSubscription({
      commands: this.commands,
      reader,
      readerId,
      group: options.group,
      consumer: `${this.config.clientId}-${randomUUID().slice(0, 8)}`,
      streams,
      handler: options.handler,
      handleBatch: options.handleBatch,
      maxBatch: options.maxBatch,
      logger: this.logger,
      backoff: { ...defaultBackoff, ...this.config.retry },
      maxInFlight: options.maxInFlight ?? this.config.maxInFlight ?? 16,
      options: this.options,
      ephemeral: options.ephemeral === true,
      ordered: options.ordered,
      lingerMs: options.lingerMs ?? 0,
      alive,
    });
    this.subscriptions.add(subscription);
    return { close: () => subscription.close().finally(() => this.subscriptions.delete(subscription)) };
  }

  /** Destroys abandoned ephemeral groups (see {@link GroupExpiry}). */
  async expireGroups(topics: string[], groupPrefix: string, idleMs: number): Promise<string[]> {
    await this.ready();
    const streams = topics.map((topic) => this.options.streamPrefix + topic);
    return expireEphemeralGroups(this.commands, this.options.streamPrefix, streams, groupPrefix, idleMs);
  }

  async ping(): Promise<void> {
    await this.ready();
    await this.commands.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.commands.isReady) await this.commands.close();
    else if (this.commands.isOpen) this.commands.destroy();
  }

  /** Connects once; later calls wait at most commandTimeoutMs for a connection still being attempted. */
  private async ready(): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    if (!this.connecting) {
      this.connecting = this.commands.connect();
      // Observed here so a connect that fails after close() is no unhandled rejection.
      this.connecting.catch(() => undefined);
    }
    await withTimeout(this.connecting, this.options.commandTimeoutMs, 'redis: connect timed out');
  }

  private newClient(withCommandTimeout: boolean): RedisClient {
    const client: RedisClient = createClient({
      url: this.config.redisUrl,
      // Not on the reader: its XREADGROUP BLOCK legitimately waits longer.
      commandOptions: withCommandTimeout ? { timeout: this.options.commandTimeoutMs } : undefined,
    });
    // node-redis reconnects by itself; log the transitions, not every failed attempt.
    client.on('error', (error: Error) => {
      if (this.healthy) this.logger.warn({ err: error }, 'redis connection lost; reconnecting');
      this.healthy = false;
    });
    client.on('ready', () => {
      if (!this.healthy) this.logger.info({}, 'redis connection restored');
      this.healthy = true;
    });
    return client;
  }
}
