import type Koa from 'koa';
import { standardServiceApp } from '@tabula/runtime';
import type { IntegrationsPorts } from './ports';
import { integrationsRouter } from './routes/integrations.routes';
import { integrationCallsRouter } from './routes/integration-calls.routes';
import { internalRouter } from './routes/internal.routes';

export type { IntegrationsPorts } from './ports';

/** Builds the integrations service app (never listens). */
export function createApp(ports: IntegrationsPorts): Koa {
  return standardServiceApp(ports, { routers: [integrationsRouter(ports), integrationCallsRouter(ports), internalRouter(ports)] });
}
