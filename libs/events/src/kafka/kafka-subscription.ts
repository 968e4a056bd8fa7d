import { KafkaJSError } from 'kafkajs';
import type { Consumer, EachBatchPayload, EachMessagePayload } from 'kafkajs';
import type { BatchHandler, EventHandler, EventLogger, EventMessage, Subscription } from '../event-bus';
import { deliverBatchWithRetry, deliverWithRetry } from '../delivery/retry';
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
  /** Batch form of the handler (SubscribeOptions.handleBatch): a fetched batch's messages of one key, together. */
  handleBatch?: BatchHandler;
  /** Largest batch given to `handleBatch` (default 64). */
  maxBatch?: number;
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
 *
 * With a batch handler the consumer takes what one fetch brought of a
 * partition (eachBatch): its messages grouped by key (each key's in partition
 * order, up to `maxBatch` a call, a lone one to the single handler, the keys
 * concurrently), and the batch's last offset resolved once every key's calls
 * succeeded. One ingest transaction then
 * covers a run of a table's events instead of one each: handled one by one, a
 * partition's throughput is one handler round trip per event, and under a steady
 * stream of a table's inserts the events queued up (consumer lag of seconds on
 * this 2-core machine, issue 30's bench). Closing mid-batch resolves nothing: the
 * whole batch is redelivered, and consumers are idempotent on the event id.
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
      ...(this.options.handleBatch
        ? { eachBatchAutoResolve: true, eachBatch: (payload: EachBatchPayload) => this.handleFetched(payload, this.options.handleBatch as BatchHandler) }
        : { eachMessage: (payload: EachMessagePayload) => this.handle(payload) }),
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

  private async handleFetched({ batch, heartbeat }: EachBatchPayload, handleBatch: BatchHandler): Promise<void> {
    const maxBatch = this.options.maxBatch ?? 64;
    const byKey = new Map<string, EventMessage[]>();
    for (const message of batch.messages) {
      const event = fromKafkaMessage(batch.topic, batch.partition, message);
      const list = byKey.get(event.key ?? '') ?? [];
      list.push(event);
      byKey.set(event.key ?? '', list);
    }
    const done = await Promise.all([...byKey.values()].map(async (events) => {
      for (let i = 0; i < events.length; i += maxBatch) {
        const chunk = events.slice(i, i + maxBatch);
        const delivery = { logger: this.options.logger, backoff: this.options.backoff, signal: this.abort.signal, beforeRetry: heartbeat };
        // a lone message goes to the single handler, in its own trace context (as the other adapters do)
        const delivered = chunk.length === 1
          ? await deliverWithRetry(chunk[0], { ...delivery, handler: this.options.handler })
          : await deliverBatchWithRetry(chunk, handleBatch, delivery);
        if (!delivered) return false;
      }
      return true;
    }));
    // eachBatchAutoResolve resolves the batch's last offset when this returns: never after a close cut it short
    if (done.includes(false)) throw new ClosingError();
    await heartbeat().catch(() => undefined);
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
