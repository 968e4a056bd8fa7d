import type Koa from 'koa';
import { AppError, type ErrorMapper } from '@tabula/http';
import { isQueryError } from '@tabula/query';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { DataConfig } from './config';
import type { TableResolver } from './context/table-handle';
import type { SourceRegistry } from './sources/source-registry';
import type { RowCounter } from './domain/row-counter';
import type { SyncHooksDispatcher } from './events/sync-hooks.dispatcher';
import { recordsRouter } from './routes/records.routes';
import { bulkRouter } from './routes/bulk.routes';
import { internalRouter } from './routes/internal.routes';

/** What the data service is handed at start-up. */
export interface DataPorts extends CommonPorts {
  config: DataConfig;
  tables: TableResolver;
  sources: SourceRegistry;
  counter: RowCounter;
  /** Publishes the outbox (which lives beside the default sources' rows, in `dataDb`). */
  relay: OutboxRelay;
  /** Delivers `async: false` hooks before a write answers. */
  syncHooks: SyncHooksDispatcher;
}

/** The query library's errors carry their own status and code. */
const queryErrorMapper: ErrorMapper = (err) =>
  isQueryError(err) ? new AppError(err.status, err.code, err.message, err.details) : undefined;

/** Builds the data service app; never listens, reads no environment. */
export function createApp(ports: DataPorts): Koa {
  return standardServiceApp(ports, {
    routers: [bulkRouter(ports), recordsRouter(ports), internalRouter(ports)],
    errorMappers: [queryErrorMapper],
    bodyLimit: 50 * 1024 * 1024,
  });
}
