import type { Knex } from 'knex';
import type { BusLogger, EventBus } from '../event-bus';
import { silentLogger } from '../event-bus';

export interface OutboxRelayOptions {
  knex: Knex;
  schema: string;
  bus: EventBus;
  logger?: BusLogger;
  /** Safety-net poll interval; requests call `flush()` right after their commit. */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
  /** Test seam: runs after publish and before the rows are marked sent. */
  afterPublish?: (ids: string[]) => Promise<void>;
}

interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  key: string;
  type: string;
  version: number;
  payload: Buffer;
  headers: Record<string, string>;
}

/**
 * Publishes committed outbox rows. Rows are claimed with `FOR UPDATE SKIP LOCKED`
 * in a transaction that publishes and then marks them, so concurrent relays never
 * publish the same row at once, and a crash between publish and mark re-publishes
 * (at least once; consumers dedupe on the event id). The request that committed
 * calls `flush()` for low latency; the poll loop catches anything left behind.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private again = false;
  private stopped = true;
  private lastCleanup = 0;
  private readonly logger: BusLogger;

  constructor(private readonly options: OutboxRelayOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Publishes everything pending now; concurrent calls coalesce. */
  flush(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => { this.running = undefined; });
    return this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.flush()
        .then(() => this.cleanup())
        .catch((err) => this.logger.warn({ err, schema: this.options.schema }, 'outbox relay failed; will retry'))
        .finally(() => this.schedule());
    }, this.options.pollIntervalMs ?? 200);
    this.timer.unref();
  }

  private async drain(): Promise<number> {
    let total = 0;
    do {
      this.again = false;
      for (let n = await this.publishBatch(); n > 0; n = await this.publishBatch()) total += n;
    } while (this.again);
    return total;
  }

  private async publishBatch(): Promise<number> {
    const { knex, schema, bus } = this.options;
    return knex.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx.withSchema(schema).table('outbox').whereNull('published_at')
        .orderBy('seq').limit(this.options.batchSize ?? 200).forUpdate().skipLocked();
      if (rows.length === 0) return 0;
      await bus.publish(rows.map((r) => ({
        id: r.id, topic: r.topic, key: r.key, type: r.type, version: r.version, payload: new Uint8Array(r.payload), headers: r.headers,
      })));
      await this.options.afterPublish?.(rows.map((r) => r.id));
      await trx.withSchema(schema).table('outbox').whereIn('seq', rows.map((r) => r.seq))
        .update({ published_at: trx.fn.now(), attempts: trx.raw('attempts + 1') });
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 60_000) return;
    this.lastCleanup = Date.now();
    const cutoff = new Date(Date.now() - (this.options.retentionMs ?? 24 * 3600_000));
    await this.options.knex.withSchema(this.options.schema).table('outbox').where('published_at', '<', cutoff).delete();
  }
}
