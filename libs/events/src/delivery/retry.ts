import type { BatchHandler, EventHandler, EventLogger, EventMessage } from '../event-bus';
import { runInMessageContext } from '../trace-context';
import type { BackoffOptions } from '../bus-options';

export type { BackoffOptions } from '../bus-options';


/** 100 ms, 200 ms, 400 ms... up to 5 s. */
export const defaultBackoff: BackoffOptions = { initialMs: 100, maxMs: 5000 };

/** Delay before attempt `attempt + 1`, with ±20 % jitter so failed consumers do not retry in lockstep. */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Waits `ms`; resolves false (early) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How {@link deliverWithRetry} runs a handler. */
export interface DeliveryOptions {
  handler: EventHandler;
  logger: EventLogger;
  backoff: BackoffOptions;
  /** Aborted when the subscription closes: stop retrying, leave the message unacknowledged. */
  signal: AbortSignal;
  /** Called before each retry (Kafka heartbeats here so a long backoff does not cost the partition). */
  beforeRetry?: () => Promise<void>;
}

/**
 * Runs the handler until it succeeds (true) or the subscription closes (false).
 * Retrying in-process keeps later messages of the same key waiting behind the
 * failed one, which is what preserves per-key order; every failure is logged.
 */
export async function deliverWithRetry(message: EventMessage, options: DeliveryOptions): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    if (options.signal.aborted) return false;
    try {
      // Object.assign, not `{ ...message, attempt }` (a spread then a new property: V8's slow path, docs/benchmarks.md).
      await runInMessageContext(message, () => options.handler(Object.assign({}, message, { attempt })));
      return true;
    } catch (error) {
      const retryInMs = backoffDelay(attempt, options.backoff);
      options.logger.warn(
        { err: error, eventId: message.id, topic: message.topic, type: message.type, key: message.key, attempt, retryInMs },
        'event handler failed; the message will be redelivered',
      );
      if (!(await sleep(retryInMs, options.signal))) return false;
      if (options.beforeRetry) await options.beforeRetry();
    }
  }
}

/**
 * {@link deliverWithRetry} for a batch of messages of one key: the batch handler
 * runs until it succeeds (true) or the subscription closes (false). The batch
 * spans several traces, so no message context is activated: the handler reads
 * each message's trace headers itself.
 */
export async function deliverBatchWithRetry(messages: EventMessage[], handler: BatchHandler, options: Omit<DeliveryOptions, 'handler'>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    if (options.signal.aborted) return false;
    try {
      await handler(messages.map((message) => Object.assign({}, message, { attempt })));
      return true;
    } catch (error) {
      const retryInMs = backoffDelay(attempt, options.backoff);
      const first = messages[0];
      options.logger.warn(
        { err: error, eventIds: messages.map((m) => m.id), topic: first?.topic, key: first?.key, attempt, retryInMs },
        'event batch handler failed; the messages will be redelivered',
      );
      if (!(await sleep(retryInMs, options.signal))) return false;
      if (options.beforeRetry) await options.beforeRetry();
    }
  }
}
