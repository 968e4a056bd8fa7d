import type Router from '@koa/router';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import { integrationCreate, integrationDelete, integrationGet, integrationList, integrationUpdate } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import type { IntegrationRow } from '../repositories/integration.repository';
import { listIntegrations } from '../domain/list-integrations';
import { getIntegration } from '../domain/get-integration';
import { createIntegration } from '../domain/create-integration';
import { updateIntegration } from '../domain/update-integration';
import { deleteIntegration } from '../domain/delete-integration';

/** CRUD on /api/v2/meta/integrations (spec "Integrations"); who may call each is on its contract. */
export function integrationsRouter(ports: IntegrationsPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, integrationList, (ctx) => listIntegrations(ports, principalOf(ctx), ctx.input.query));
  route(router, integrationCreate, (ctx) => createIntegration(ports, principalOf(ctx), ctx.input.body));
  route(router, integrationGet, (ctx) => getIntegration(ports, scopeOf<IntegrationRow>(ctx), ctx.input.query));
  route(router, integrationUpdate, (ctx) => updateIntegration(ports, scopeOf<IntegrationRow>(ctx), ctx.input.body));
  route(router, integrationDelete, (ctx) => deleteIntegration(ports, scopeOf<IntegrationRow>(ctx), ctx.input.query.force));
  return router;
}
