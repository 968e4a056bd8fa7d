import type { Knex } from 'knex';
import type { Logger } from '@tabula/telemetry';
import { FEED_CHANNEL } from './feed.repository';

/** A pooled PostgreSQL connection as knex hands it out (node-pg's Client). */
interface PgConnection {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { payload?: string }) => void): void;
  once(event: 'error', listener: () => void): void;
  removeListener(event: string, listener: (...args: never[]) => void): void;
  __knex__disposed?: unknown;
}

/**
 * One pooled connection LISTENing on the feed's channel (appends of every
 * replica): each notification's payload goes to `onNotify`. When the
 * connection fails it is discarded and another acquired a second later (the
 * hub's poll covers the gap); `stop` unlistens and gives it back to the pool.
 */
export class FeedListener {
  private held: { release(): Promise<void> } | undefined;
  private stopped = false;

  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
    private readonly onNotify: (payload: string | undefined) => void,
  ) {}

  async start(): Promise<void> {
    const client = this.db.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<void> };
    try {
      const conn = await client.acquireConnection();
      const onNotification = (message: { payload?: string }) => this.onNotify(message.payload);
      const onError = () => {
        conn.removeListener('notification', onNotification);
        conn.__knex__disposed = true;
        const held = this.held;
        this.held = undefined;
        void held?.release();
        this.retry();
      };
      conn.on('notification', onNotification);
      conn.once('error', onError);
      await conn.query(`LISTEN ${FEED_CHANNEL}`);
      let released = false;
      this.held = {
        release: async () => {
          if (released) return;
          released = true;
          conn.removeListener('notification', onNotification);
          conn.removeListener('error', onError);
          await conn.query(`UNLISTEN ${FEED_CHANNEL}`).catch(() => undefined);
          await client.releaseConnection(conn).catch(() => undefined);
        },
      };
    } catch (err) {
      this.logger.warn({ err }, 'feed: LISTEN failed; polling');
      this.retry();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const held = this.held;
    this.held = undefined;
    await held?.release();
  }

  private retry(): void {
    if (!this.stopped) setTimeout(() => { void this.start(); }, 1000).unref();
  }
}
