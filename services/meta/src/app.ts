import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { MetaPorts } from './ports';
import { metaScopes } from './domain/scopes/meta-scopes';
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
import { metaV3Router } from './routes/meta-v3.routes';
import { metaV3ViewsRouter } from './routes/meta-v3-views.routes';

/** Builds the meta service app; never listens, reads no environment. */
export function createApp(ports: MetaPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, metaScopes(ports));
  const routers = [
    basesRouter, tablesRouter, columnsRouter, viewsRouter, sortsRouter, filtersRouter, indexesRouter, swaggerRouter, internalRouter, integrationSourcesRouter, metaV3Router, metaV3ViewsRouter,
  ].map((router) => router(ports, authorizer));
  return standardServiceApp(ports, { routers });
}
