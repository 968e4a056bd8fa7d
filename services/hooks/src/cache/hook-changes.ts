import type { Knex } from 'knex';
import { Client, type ClientConfig } from 'pg';
import type { HookCache } from './hook-cache';

/** PostgreSQL channel announcing committed hook and filter changes; the payload is a table id (or `*`). */
export const HOOK_CHANGES_CHANNEL = 'tabula_hooks_changed';

interface Logger {
  warn(obj: object, msg?: string): void;
}

/**
 * Announces that the hooks (or filters) of some tables changed: drops them from
 * this process's cache at once and NOTIFYs the other hooks processes. Call it
 * after the change committed.
 */
export async function announceHookChange(db: Knex, cache: HookCache, tableIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(tableIds)];
  if (!ids.length) return;
  cache.invalidate(ids);
  await db.raw('SELECT pg_notify(?, t) FROM unnest(?::text[]) AS t', [HOOK_CHANGES_CHANNEL, ids]);
}

/**
 * Listens for hook changes on a dedicated connection and drops the announced
 * tables from the cache. The cache is enabled only while the listener is
 * connected (and flushed whenever it (re)connects), so a missed notification
 * can never leave a stale entry; reconnects with a backoff.
 */
export class HookChangeListener {
  private client: Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(private readonly db: Knex, private readonly cache: HookCache, private readonly logger: Logger) {}

  /** Connects; resolves once listening (or after the first failure, retrying in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const connection = (this.db.client as { config: { connection: ClientConfig | string } }).config.connection;
    const client = new Client(typeof connection === 'string' ? { connectionString: connection } : { ...connection });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.cache.setEnabled(false);
      if (err) this.logger.warn({ err }, 'hook change listener lost its connection; cache bypassed until it reconnects');
      client.end().catch(() => undefined);
      this.retry();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      if (msg.channel !== HOOK_CHANGES_CHANNEL) return;
      if (!msg.payload || msg.payload === '*') this.cache.invalidateAll();
      else this.cache.invalidate([msg.payload]);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${HOOK_CHANGES_CHANNEL}`);
      if (this.stopped) {
        await client.end();
        return;
      }
      this.client = client;
      this.failures = 0;
      this.cache.setEnabled(true);
    } catch (err) {
      this.logger.warn({ err }, 'hook change listener cannot connect; cache bypassed');
      client.end().catch(() => undefined);
      this.retry();
    }
  }

  private retry(): void {
    if (this.stopped) return;
    this.failures += 1;
    const delay = Math.min(10_000, 200 * 2 ** Math.min(this.failures, 6));
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  /** Stops listening; the cache is bypassed from now on. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    this.cache.setEnabled(false);
    await client?.end().catch(() => undefined);
  }
}
