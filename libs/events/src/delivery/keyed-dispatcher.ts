import type { EventMessage } from '../event-bus';
import { deliverWithRetry } from './retry';
import type { DeliveryOptions } from './retry';

/** Settings of a {@link KeyedDispatcher}. */
export interface DispatcherOptions {
  delivery: Omit<DeliveryOptions, 'signal'>;
  /** Messages accepted but not finished (running or queued behind their key). */
  maxInFlight: number;
  /** Acknowledges a message whose handler succeeded. */
  onProcessed(message: EventMessage): Promise<void> | void;
  /** A message finished (processed or given back); capacity is free again. */
  onSettled?(): void;
  /** What orders messages: those with the same value run one after another. Default: the message key. */
  orderKey?(message: EventMessage): string;
}

/**
 * Runs the handler of one consumer: messages of the same key strictly one after
 * another in arrival order, different keys concurrently up to `maxInFlight`.
 * Shared by the memory and Redis adapters (Kafka gets the same from partitions).
 */
export class KeyedDispatcher {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly givenBack: Array<{ seq: number; message: EventMessage }> = [];
  private readonly waiters: Array<() => void> = [];
  private seq = 0;
  private active = 0;
  private closed = false;

  constructor(private readonly options: DispatcherOptions) {}

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
    const seq = this.seq++;
    this.active++;
    const key = this.options.orderKey?.(message) ?? message.key;
    const previous = this.chains.get(key) ?? Promise.resolve();
    const current = previous.then(() => this.process(message, seq));
    this.chains.set(key, current);
    void current.finally(() => {
      if (this.chains.get(key) === current) this.chains.delete(key);
      this.active--;
      this.waiters.splice(0).forEach((wake) => wake());
      this.options.onSettled?.();
    });
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

  private async process(message: EventMessage, seq: number): Promise<void> {
    const delivered = !this.closed && (await deliverWithRetry(message, { ...this.options.delivery, signal: this.abort.signal }));
    if (!delivered) {
      this.givenBack.push({ seq, message });
      return;
    }
    try {
      await this.options.onProcessed(message);
    } catch (error) {
      // The handler's work is done; a lost ack only means one more (idempotent) delivery later.
      this.options.delivery.logger.warn({ err: error, eventId: message.id, topic: message.topic }, 'event acknowledgement failed');
    }
  }
}
