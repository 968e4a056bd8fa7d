import type { Knex } from 'knex';
import type { EventBus, EventLogger } from '../event-bus';
import { backoffDelay } from '../delivery/retry';
import { fallbackLogger } from '../logger';
import { deletePublishedBefore, outboxLag, recordFailure, relayBatch, toPublishInput } from './outbox.repository';

/** Settings of an {@link OutboxRelay}. */
export interface OutboxRelayOptions {
  knex: Knex;
  /** The service schema holding the `outbox` table. */
  schema: string;
  bus: EventBus;
  logger?: EventLogger;
  /** Safety-net poll interval. Default 200 ms. */
  pollIntervalMs?: number;
  /** Rows claimed and published per transaction. Default 200. */
  batchSize?: number;
  /** Published rows older than this are deleted. Default 24 h. */
  retentionMs?: number;
  /** Test seam: runs after `bus.publish` and before rows are marked sent (throw to simulate a crash there). */
  afterPublish?: (ids: string[]) => Promise<void>;
}

const CLEANUP_EVERY_MS = 60_000;
const CLEANUP_CHUNK = 1000;

/**
 * Publishes committed outbox rows. Each batch is one transaction: take the
 * outbox's advisory lock, claim rows `FOR UPDATE SKIP LOCKED`, publish, mark
 * `published_at`, commit — sent as two round trips (`relayBatch`). So relays never publish a row concurrently, rows leave
 * in commit order, and a crash between publish and mark re-publishes the rows
 * (at least once; consumers dedupe on the event id).
 *
 * Latency comes from `flush()`, which the request that committed calls; the
 * poll loop (default 200 ms) is the safety net for rows whose request died and
 * for rows another replica's flush could not take. Polling instead of
 * LISTEN/NOTIFY: NOTIFY would pin a dedicated connection per relay and still
 * need the poll as a fallback, for a gain the flush already provides.
 */
export class OutboxRelay {
  private readonly logger: EventLogger;
  private readonly batchSize: number;
  private running: Promise<number> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = true;
  private failures = 0;
  private lastCleanup = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.logger = options.logger ?? fallbackLogger;
    this.batchSize = options.batchSize ?? 200;
  }

  /** Starts the poll loop. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** The schema whose outbox this relay drains. */
  get schema(): string {
    return this.options.schema;
  }

  /** How far behind the relay is: unsent rows and the age of the oldest (metrics). */
  lag(): Promise<{ unsent: number; oldestAgeSeconds: number }> {
    return outboxLag(this.options.knex, this.options.schema);
  }

  /** Stops the poll loop and waits for the batch (or cleanup) in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    await this.running?.catch(() => undefined);
  }

  /**
   * Publishes everything pending now and resolves with the number of rows this
   * relay published. Calls during a run join it (and make it look once more).
   */
  flush(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = this.drain().finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /**
   * Asks the relay to publish what a just-committed transaction wrote, now
   * rather than at the next poll. Never throws: a failed publish is not the
   * caller's error, the rows stay in the outbox and the poll retries them.
   */
  async nudge(): Promise<void> {
    await this.flush().catch((err: unknown) => this.logger.warn({ err, schema: this.options.schema }, 'outbox flush failed; the relay will retry'));
  }

  private async drain(): Promise<number> {
    let total = 0;
    do {
      this.again = false;
      for (let published = this.batchSize; published === this.batchSize; total += published) {
        published = await this.publishBatch();
      }
    } while (this.again);
    return total;
  }

  private async publishBatch(): Promise<number> {
    const { knex, schema, bus } = this.options;
    let claimed: string[] = [];
    try {
      return await relayBatch(knex, schema, this.batchSize, async (rows) => {
        claimed = rows.map((row) => row.id);
        await bus.publish(rows.map(toPublishInput));
        await this.options.afterPublish?.(claimed);
      });
    } catch (error) {
      if (claimed.length > 0) await recordFailure(knex, schema, claimed, error).catch(() => undefined);
      throw error;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, delayMs);
  }

  private async tick(): Promise<void> {
    try {
      await this.flush();
      await this.cleanup();
      this.failures = 0;
    } catch (error) {
      this.failures++;
      this.logger.warn({ err: error, schema: this.options.schema, failures: this.failures }, 'outbox relay failed; retrying');
    }
    // Back off while the bus or database is down instead of hammering it every poll.
    const pollMs = this.options.pollIntervalMs ?? 200;
    this.schedule(this.failures > 0 ? Math.max(pollMs, backoffDelay(this.failures, { initialMs: pollMs, maxMs: 10_000 })) : pollMs);
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    const cutoff = new Date(Date.now() - (this.options.retentionMs ?? 24 * 3_600_000));
    let deleted = CLEANUP_CHUNK;
    for (let round = 0; deleted === CLEANUP_CHUNK && round < 50 && !this.stopped; round++) {
      deleted = await deletePublishedBefore(this.options.knex, this.options.schema, cutoff, CLEANUP_CHUNK);
    }
  }
}
