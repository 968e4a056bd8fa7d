import type { CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { DataConfig } from './config';
import type { TableResolver } from './context/table-handle';
import type { SourceRegistry } from '@tabula/db';
import type { RowCounter } from './domain/row-counter';
import type { SyncHooksClient } from './adapters/sync-hooks.client';

/** What the data service is handed at start-up. */
export interface DataPorts extends CommonPorts {
  config: DataConfig;
  tables: TableResolver;
  sources: SourceRegistry;
  counter: RowCounter;
  /** Publishes the outbox (which lives beside the default sources' rows, in `dataDb`). */
  relay: OutboxRelay;
  /** Delivers `async: false` hooks before a write answers. */
  syncHooks: SyncHooksClient;
}
