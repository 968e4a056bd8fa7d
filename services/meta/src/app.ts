import type Koa from 'koa';
import { standardServiceApp, type CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { MetaConfig } from './config';
import type { SourceRegistry } from './sources/source-registry';
import { basesRouter } from './routes/bases.routes';
import { tablesRouter } from './routes/tables.routes';
import { columnsRouter } from './routes/columns.routes';
import { viewsRouter } from './routes/views.routes';
import { sortsRouter } from './routes/sorts.routes';
import { filtersRouter } from './routes/filters.routes';
import { swaggerRouter } from './routes/swagger.routes';
import { internalRouter } from './routes/internal.routes';

/** What the meta service is handed at start-up. */
export interface MetaPorts extends CommonPorts {
  config: MetaConfig;
  /** One knex pool per data source. */
  sources: SourceRegistry;
  /** Publishes what our transactions put in the outbox. */
  relay: OutboxRelay;
}

/** Builds the meta service app; never listens, reads no environment. */
export function createApp(ports: MetaPorts): Koa {
  return standardServiceApp(ports, {
    routers: [
      basesRouter(ports), tablesRouter(ports), columnsRouter(ports), viewsRouter(ports),
      sortsRouter(ports), filtersRouter(ports), swaggerRouter(ports), internalRouter(ports),
    ],
  });
}
