import type Koa from 'koa';
import { contractAuthorizer } from '@tabula/auth';
import { standardServiceApp } from '@tabula/runtime';
import type { IntegrationsPorts } from './ports';
import { integrationScopes } from './domain/integration-scope';
import { integrationsRouter } from './routes/integrations.routes';
import { integrationCallsRouter } from './routes/integration-calls.routes';
import { internalRouter } from './routes/internal.routes';

export type { IntegrationsPorts } from './ports';

/** Builds the integrations service app (never listens). */
export function createApp(ports: IntegrationsPorts): Koa {
  const authorizer = contractAuthorizer(ports.baseAccess, integrationScopes(ports));
  return standardServiceApp(ports, { routers: [integrationsRouter(ports, authorizer), integrationCallsRouter(ports, authorizer), internalRouter(ports)] });
}
