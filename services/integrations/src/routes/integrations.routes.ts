import Router from '@koa/router';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import { integrationCreate, integrationDelete, integrationGet, integrationList, integrationUpdate } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { listIntegrations } from '../domain/list-integrations';
import { getIntegration } from '../domain/get-integration';
import { createIntegration } from '../domain/create-integration';
import { updateIntegration } from '../domain/update-integration';
import { deleteIntegration } from '../domain/delete-integration';

/** CRUD on /api/v2/meta/integrations (spec "Integrations"). */
export function integrationsRouter(ports: IntegrationsPorts): Router {
  const router = new Router();
  route(router, integrationList, (ctx) => listIntegrations(ports, principalOf(ctx), ctx.input.query));
  route(router, integrationCreate, (ctx) => createIntegration(ports, principalOf(ctx), ctx.input.body));
  route(router, integrationGet, (ctx) => getIntegration(ports, principalOf(ctx), ctx.input.params.integrationId, ctx.input.query));
  route(router, integrationUpdate, (ctx) => updateIntegration(ports, principalOf(ctx), ctx.input.params.integrationId, ctx.input.body));
  route(router, integrationDelete, (ctx) => deleteIntegration(ports, principalOf(ctx), ctx.input.params.integrationId, ctx.input.query.force));
  return router;
}
