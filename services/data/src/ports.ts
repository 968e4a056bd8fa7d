import type { CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { DataConfig } from './config';
import type { TableResolver } from './context/table-handle';
import type { SourceRegistry } from '@tabula/db';
import type { RowCounter } from './domain/row-counter';
import type { SyncHooksClient } from './adapters/sync-hooks.client';
import type { OutboxFlusher } from './events/outbox-flusher';
import type { AuthClient, MetaClient, StorageClient } from './adapters/service-clients';

/** What the data service is handed at start-up. */
export interface DataPorts extends CommonPorts {
  config: DataConfig;
  tables: TableResolver;
  sources: SourceRegistry;
  counter: RowCounter;
  /** Publishes the outbox (which lives beside the default sources' rows, in `dataDb`). */
  relay: OutboxRelay;
  /** Asks the relay to publish soon after a commit (never awaited by a request). */
  outboxFlusher: OutboxFlusher;
  /** Delivers `async: false` hooks before a write answers. */
  syncHooks: SyncHooksClient;
  /** Meta's internal API (table contexts, base candidates), typed. */
  meta: MetaClient;
  /**
   * Storage's internal attachment API (claim on write, sign on read), typed. Built at start-up; the
   * claim and sign adapters still build their own client until they move to this port (see attachments/).
   */
  storage: StorageClient;
  /** Auth's internal API: the users user cells name (read as `{id, email, display_name}`, written by e-mail or id). */
  auth: AuthClient;
}
