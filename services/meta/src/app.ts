import type Koa from 'koa';
import { standardServiceApp } from '@tabula/runtime';
import type { MetaPorts } from './ports';
import { basesRouter } from './routes/bases.routes';
import { tablesRouter } from './routes/tables.routes';
import { columnsRouter } from './routes/columns.routes';
import { viewsRouter } from './routes/views.routes';
import { sortsRouter } from './routes/sorts.routes';
import { filtersRouter } from './routes/filters.routes';
import { indexesRouter } from './routes/indexes.routes';
import { swaggerRouter } from './routes/swagger.routes';
import { internalRouter } from './routes/internal.routes';
import { integrationSourcesRouter } from './routes/integration-sources.routes';


/** Builds the meta service app; never listens, reads no environment. */
export function createApp(ports: MetaPorts): Koa {
  return standardServiceApp(ports, {
    routers: [
      basesRouter(ports), tablesRouter(ports), columnsRouter(ports), viewsRouter(ports),
      sortsRouter(ports), filtersRouter(ports), indexesRouter(ports), swaggerRouter(ports), internalRouter(ports), integrationSourcesRouter(ports),
    ],
  });
}
