import type { BatchHandler, EventMessage } from '../event-bus';
import { deliverBatchWithRetry, deliverWithRetry } from './retry';
import type { DeliveryOptions } from './retry';

/** Settings of a {@link KeyedRunner}. */
export interface KeyedRunnerOptions {
  delivery: Omit<DeliveryOptions, 'signal'>;
  /** Batch form of the handler: messages of one key queued behind a running one are handed over together. */
  batchHandler?: BatchHandler;
  /** Largest batch (default 64). */
  maxBatch?: number;
  /** Messages accepted but not finished (running or queued behind their key). */
  maxInFlight: number;
  /** Acknowledges a message whose handler succeeded. */
  onProcessed(message: EventMessage): Promise<void> | void;
  /** A message finished (processed or given back); capacity is free again. */
  onSettled?(): void;
  /** What orders messages: those with the same value run one after another (and may batch). Default: the message key. */
  orderKey?(message: EventMessage): string;
}

/**
 * Runs the handler of one consumer: messages of the same key strictly one after
 * another in arrival order, different keys concurrently up to `maxInFlight`.
 * Shared by the memory, Redis and Kafka adapters.
 * With a `batchHandler`, the messages of a key that arrive while it is busy
 * (or together) wait in one open batch and are handled in one call.
 */
export class KeyedRunner {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly givenBack: Array<{ seq: number; message: EventMessage }> = [];
  /** Per key, the batch queued behind the running one that later messages may still join. */
  private readonly open = new Map<string, Array<{ seq: number; message: EventMessage }>>();
  private readonly waiters: Array<() => void> = [];
  private seq = 0;
  private active = 0;
  private closed = false;

  constructor(private readonly options: KeyedRunnerOptions) {}

  /** True while another message can be accepted without exceeding `maxInFlight`. */
  hasCapacity(): boolean {
    return this.closed || this.active < this.options.maxInFlight;
  }

  /** Resolves when {@link hasCapacity} (or on close), so a reader does not fetch more than it can run. */
  waitForCapacity(): Promise<void> {
    if (this.hasCapacity()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Queues the message behind earlier messages of its key. Never throws. */
  dispatch(message: EventMessage): void {
    const entry = { seq: this.seq++, message };
    this.active++;
    const key = this.options.orderKey?.(message) ?? message.key;
    const maxBatch = this.options.batchHandler ? Math.max(1, this.options.maxBatch ?? 64) : 1;
    const open = this.open.get(key);
    if (open && open.length < maxBatch) {
      open.push(entry);
      return;
    }
    const batch = [entry];
    if (maxBatch > 1) this.open.set(key, batch);
    const previous = this.chains.get(key) ?? Promise.resolve();
    const current = previous.then(() => {
      if (this.open.get(key) === batch) this.open.delete(key);
      return this.process(batch);
    });
    this.chains.set(key, current);
    void current.finally(() => {
      if (this.chains.get(key) === current) this.chains.delete(key);
      this.active -= batch.length;
      this.waiters.splice(0).forEach((wake) => wake());
      this.options.onSettled?.();
    });
  }

  /** Resolves once every accepted message has finished (processed or given back). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  /**
   * Stops retries, waits for running handlers and returns, in arrival order, the
   * messages that were not processed (they stay unacknowledged at the broker).
   */
  async close(): Promise<EventMessage[]> {
    this.closed = true;
    this.abort.abort();
    this.waiters.splice(0).forEach((wake) => wake());
    while (this.chains.size > 0) await Promise.all([...this.chains.values()]);
    return this.givenBack.sort((a, b) => a.seq - b.seq).map((entry) => entry.message);
  }

  private async process(batch: Array<{ seq: number; message: EventMessage }>): Promise<void> {
    const messages = batch.map((entry) => entry.message);
    const { batchHandler } = this.options;
    const delivered = !this.closed && (batchHandler && messages.length > 1
      ? await deliverBatchWithRetry(messages, batchHandler, { ...this.options.delivery, signal: this.abort.signal })
      : await deliverWithRetry(messages[0], { ...this.options.delivery, signal: this.abort.signal }));
    if (!delivered) {
      this.givenBack.push(...batch);
      return;
    }
    await Promise.all(messages.map(async (message) => {
      try {
        await this.options.onProcessed(message);
      } catch (error) {
        // The handler's work is done; a lost ack only means one more (idempotent) delivery later.
        this.options.delivery.logger.warn({ err: error, eventId: message.id, topic: message.topic }, 'event acknowledgement failed');
      }
    }));
  }
}
