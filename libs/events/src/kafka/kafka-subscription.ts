import { KafkaJSError } from 'kafkajs';
import type { Consumer, EachMessagePayload } from 'kafkajs';
import type { EventHandler, EventLogger, Subscription } from '../event-bus';
import { deliverWithRetry } from '../delivery/retry';
import type { BackoffOptions } from '../delivery/retry';
import { settlesWithin } from '../delivery/with-timeout';
import { fromKafkaMessage } from './kafka-codec';

/**
 * Thrown out of eachMessage when closing mid-retry, so kafkajs does not resolve
 * (commit) that offset. A KafkaJSError, because kafkajs logs any other error
 * from eachMessage as a failure, and this is an orderly shutdown.
 */
class ClosingError extends KafkaJSError {
  constructor() {
    super('subscription closing; message left uncommitted for redelivery', { retriable: true });
  }
}

/** What a Kafka subscription runs. */
export interface KafkaSubscriptionOptions {
  consumer: Consumer;
  handler: EventHandler;
  logger: EventLogger;
  backoff: BackoffOptions;
  partitionsConsumedConcurrently: number;
  /** Called once the consumer has disconnected (ephemeral groups are deleted here). */
  afterClose?: () => Promise<void>;
}

/**
 * One kafkajs consumer (one group member). Each partition is consumed strictly
 * in order (so per key, since the key picks the partition); a failing handler is
 * retried in place with backoff, heartbeating between attempts so the member
 * keeps its partitions. kafkajs resolves an offset only after eachMessage
 * resolves and auto-commits resolved offsets only, so a commit always follows a
 * successful handler.
 */
export class KafkaSubscription implements Subscription {
  private readonly abort = new AbortController();
  private closing: Promise<void> | undefined;

  constructor(private readonly options: KafkaSubscriptionOptions) {}

  /**
   * Starts the consume loop and resolves once this member has joined the group
   * (or after `joinTimeoutMs`), so that for a `fromBeginning: false` group
   * "latest" means "after subscribe() returned".
   */
  async start(joinTimeoutMs: number): Promise<void> {
    const { consumer } = this.options;
    let removeListener: (() => void) | undefined;
    const joined = new Promise<void>((resolve) => {
      removeListener = consumer.on(consumer.events.GROUP_JOIN, () => resolve());
    });
    await consumer.run({
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
      eachMessage: (payload) => this.handle(payload),
    });
    const inTime = await settlesWithin(joined, joinTimeoutMs);
    removeListener?.();
    if (!inTime) this.options.logger.warn({ joinTimeoutMs }, 'kafka consumer has not joined its group yet; continuing');
  }

  /** Stops fetching, waits for running handlers (kafkajs' stop waits for eachMessage), leaves the group. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.abort.abort();
      await this.options.consumer.disconnect();
      await this.options.afterClose?.();
    })();
    return this.closing;
  }

  private async handle({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    const event = fromKafkaMessage(topic, partition, message);
    const delivered = await deliverWithRetry(event, {
      handler: this.options.handler,
      logger: this.options.logger,
      backoff: this.options.backoff,
      signal: this.abort.signal,
      beforeRetry: heartbeat,
    });
    if (!delivered) throw new ClosingError();
  }
}
