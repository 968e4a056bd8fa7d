import { KafkaJSError } from 'kafkajs';
import type { Consumer, EachBatchPayload } from 'kafkajs';
import type { BatchHandler, EventHandler, EventLogger, EventMessage, Subscription } from '../event-bus';
import { KeyedRunner } from '../delivery/keyed-runner';
import { sleep } from '../delivery/retry';
import type { BackoffOptions } from '../delivery/retry';
import { settlesWithin } from '../delivery/with-timeout';
import { fromKafkaMessage } from './kafka-codec';

/**
 * Thrown out of eachBatch when the subscription is closing, so kafkajs fetches
 * nothing more for it. A KafkaJSError, because kafkajs logs any other error
 * from eachBatch as a failure, and this is an orderly shutdown.
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
  /** Batch form of the handler (SubscribeOptions.handleBatch): messages of one key queued behind a running one, together. */
  handleBatch?: BatchHandler;
  /** Largest batch given to `handleBatch` (default 64). */
  maxBatch?: number;
  /** Messages fetched and not yet handled (running or queued behind their key); the fetch waits beyond it. */
  maxInFlight: number;
  /** false: one key's messages may run concurrently too (SubscribeOptions.ordered). */
  ordered?: boolean;
  logger: EventLogger;
  backoff: BackoffOptions;
  partitionsConsumedConcurrently: number;
  /**
   * How long a rebalance waits for this member's handlers before it rejoins
   * anyway (a handler stuck retrying must not keep the group from rebalancing).
   */
  drainTimeoutMs: number;
  /** Called once the consumer has disconnected (ephemeral groups are deleted here). */
  afterClose?: () => Promise<void>;
}

/**
 * A partition's messages from dispatch to commit: the offsets handed to the
 * handlers in partition order, which of them finished, and so the offset the
 * group may commit (one past the last of an unbroken run of finished ones).
 */
class PartitionProgress {
  /** Dispatched offsets not yet part of the committable run, in order, and whether each finished. */
  private readonly queue: Array<{ offset: bigint; done: boolean }> = [];
  private readonly byOffset = new Map<bigint, { offset: bigint; done: boolean }>();
  private head = 0;
  /** The highest offset handed to a handler by this member (-1: none). */
  dispatchedThrough = -1n;
  /** The offset to commit: every message before it was handled (-1: nothing yet). */
  committable = -1n;
  /** The offset last committed by this member (-1: none). */
  committed = -1n;

  dispatch(offset: bigint): void {
    const entry = { offset, done: false };
    this.queue.push(entry);
    this.byOffset.set(offset, entry);
    this.dispatchedThrough = offset;
  }

  /** Marks a handled offset; true if that moved the committable offset. */
  finish(offset: bigint): boolean {
    const entry = this.byOffset.get(offset);
    if (!entry) return false;
    entry.done = true;
    let moved = false;
    while (this.head < this.queue.length && this.queue[this.head].done) {
      const finished = this.queue[this.head++];
      this.byOffset.delete(finished.offset);
      this.committable = finished.offset + 1n;
      moved = true;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return moved;
  }
}

const progressKey = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

/**
 * One kafkajs consumer (one group member), pipelined: the fetch loop hands
 * each fetched message to a KeyedRunner (as the Redis adapter's read loop
 * does) and fetches again at once, instead of waiting for the batch's
 * handlers and then for an offset commit before the next fetch. Messages of one
 * key (the key picks the partition) are handled strictly one after another in
 * partition order, different keys concurrently, up to `maxInFlight` messages
 * fetched and unfinished (the fetch loop waits, heartbeating, beyond it); with a
 * batch handler, a key's messages that queue up behind a running call are
 * handed over together. A failing handler is retried in place with backoff,
 * holding its key back.
 *
 * Offsets are committed by this class, not by kafkajs (`autoCommit: false`):
 * per partition, one past the last message of an unbroken run of handled ones,
 * so a commit always follows the handler's work (a member that dies loses
 * nothing; what it handled after its last commit is redelivered, and consumers
 * are idempotent on the event id). Commits are coalesced: at most one request in
 * flight, the next carrying whatever finished meanwhile.
 *
 * Rebalancing: when the heartbeat in the fetch loop reports a rebalance, the
 * member first lets its running handlers finish (at most `drainTimeoutMs`) and
 * commits them, so the partition's next owner starts after them; after any
 * join, nothing new is dispatched before what was in flight has finished, and
 * offsets of a partition that stayed with this member and come again (kafkajs
 * refetches from the committed offset) are not dispatched twice.
 */
export class KafkaSubscription implements Subscription {
  private readonly runner: KeyedRunner;
  private readonly progress = new Map<string, PartitionProgress>();
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Joins seen (GROUP_JOIN) and the count when the fetch loop last drained for one. */
  private joins = 0;
  private drainedForJoin = 0;
  private heartbeat: (() => Promise<void>) | undefined;
  private committing: Promise<void> | undefined;
  private commitAgain = false;
  private commitScheduled = false;
  private removeJoinListener: (() => void) | undefined;

  constructor(private readonly options: KafkaSubscriptionOptions) {
    this.runner = new KeyedRunner({
      delivery: {
        handler: options.handler,
        logger: options.logger,
        backoff: options.backoff,
        // a long backoff must not cost the partition; a failed heartbeat surfaces in the fetch loop
        beforeRetry: async () => { await this.heartbeat?.().catch(() => undefined); },
      },
      batchHandler: options.handleBatch,
      maxBatch: options.maxBatch,
      maxInFlight: options.maxInFlight,
      onProcessed: (message) => this.finished(message),
      orderKey: options.ordered === false ? (message) => message.offset ?? message.id : undefined,
    });
  }

  /**
   * Starts the consume loop and resolves once this member has joined the group
   * (or after `joinTimeoutMs`), so that for a `fromBeginning: false` group
   * "latest" means "after subscribe() returned".
   */
  async start(joinTimeoutMs: number): Promise<void> {
    const { consumer } = this.options;
    let firstJoin: () => void = () => undefined;
    const joined = new Promise<void>((resolve) => { firstJoin = resolve; });
    this.removeJoinListener = consumer.on(consumer.events.GROUP_JOIN, (event) => {
      this.joins++;
      this.keepAssigned(event.payload.memberAssignment);
      firstJoin();
    });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
      eachBatch: (payload: EachBatchPayload) => this.dispatchFetched(payload),
    });
    const inTime = await settlesWithin(joined, joinTimeoutMs);
    if (!inTime) this.options.logger.warn({ joinTimeoutMs }, 'kafka consumer has not joined its group yet; continuing');
  }

  /**
   * Stops fetching, stops retries, waits for running handlers, commits what
   * they finished, leaves the group. Unfinished messages stay uncommitted for
   * the group's next owner of their partition.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      await this.runner.close();
      await this.commit();
      this.removeJoinListener?.();
      await this.options.consumer.disconnect();
      await this.options.afterClose?.();
    })();
    return this.closing;
  }

  private async dispatchFetched({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.heartbeat = heartbeat;
    if (this.drainedForJoin !== this.joins) {
      // a join happened: what an earlier assignment put in flight finishes before anything new starts
      this.drainedForJoin = this.joins;
      await settlesWithin(this.runner.idle(), this.options.drainTimeoutMs);
    }
    const key = progressKey(batch.topic, batch.partition);
    let progress = this.progress.get(key);
    if (!progress) {
      progress = new PartitionProgress();
      this.progress.set(key, progress);
    }
    for (const message of batch.messages) {
      if (this.closed) throw new ClosingError();
      if (!isRunning() || isStale()) return;
      const offset = BigInt(message.offset);
      if (offset > progress.dispatchedThrough) {
        while (!this.runner.hasCapacity()) {
          await Promise.race([this.runner.waitForCapacity(), sleep(1000)]);
          await this.heartbeatOrDrain(heartbeat);
          if (this.closed) throw new ClosingError();
        }
        progress.dispatch(offset);
        this.runner.dispatch(fromKafkaMessage(batch.topic, batch.partition, message));
      }
      // kafkajs fetches from the resolved offset: this one is the runner's now (or was already)
      resolveOffset(message.offset);
    }
    await this.heartbeatOrDrain(heartbeat);
  }

  /**
   * kafkajs' heartbeat; when it reports a rebalance, the handlers running here
   * finish (bounded) and are committed before the error makes kafkajs rejoin.
   */
  private async heartbeatOrDrain(heartbeat: () => Promise<void>): Promise<void> {
    try {
      await heartbeat();
    } catch (error) {
      await settlesWithin(this.runner.idle(), this.options.drainTimeoutMs);
      await this.commit();
      throw error;
    }
  }

  /** Forgets partitions this member no longer holds (their late commits would move another owner's offset back). */
  private keepAssigned(assignment: Record<string, number[]>): void {
    const kept = new Set<string>();
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) kept.add(progressKey(topic, partition));
    }
    for (const key of [...this.progress.keys()]) if (!kept.has(key)) this.progress.delete(key);
  }

  private finished(message: EventMessage): void {
    // fromKafkaMessage sets `offset` to `partition:offset`
    const [partition, offset] = (message.offset ?? '').split(':');
    if (offset === undefined) return;
    const progress = this.progress.get(progressKey(message.topic, Number(partition)));
    if (progress?.finish(BigInt(offset))) this.scheduleCommit();
  }

  /** Commits soon: one request at a time, the next one carrying what finished meanwhile. */
  private scheduleCommit(): void {
    if (this.committing) {
      this.commitAgain = true;
      return;
    }
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      void this.commit();
    });
  }

  /** Commits every partition's committable offset that moved; failures are logged (the next commit carries it). */
  private commit(): Promise<void> {
    if (this.committing) {
      this.commitAgain = true;
      return this.committing.then(() => this.commit());
    }
    const offsets: Array<{ topic: string; partition: number; offset: string }> = [];
    const sent: Array<[PartitionProgress, bigint]> = [];
    for (const [key, progress] of this.progress) {
      if (progress.committable <= progress.committed) continue;
      const [topic, partition] = key.split('\u0000');
      offsets.push({ topic, partition: Number(partition), offset: progress.committable.toString() });
      sent.push([progress, progress.committable]);
    }
    if (offsets.length === 0) return Promise.resolve();
    this.committing = (async () => {
      try {
        await this.options.consumer.commitOffsets(offsets);
        for (const [progress, offset] of sent) if (offset > progress.committed) progress.committed = offset;
      } catch (error) {
        this.options.logger.warn({ err: error, offsets }, 'kafka offset commit failed; the next commit carries it (redelivery is idempotent)');
      } finally {
        this.committing = undefined;
        if (this.commitAgain) {
          this.commitAgain = false;
          this.scheduleCommit();
        }
      }
    })();
    return this.committing;
  }
}
