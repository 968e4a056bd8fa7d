import Router from '@koa/router';
import { route } from '@tabula/http';
import { integrationConfigInternal } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { internalConfig } from '../domain/internal-config';

/** The internal API (services only): decrypted configs for meta. */
export function internalRouter(ports: IntegrationsPorts): Router {
  const router = new Router();
  route(router, integrationConfigInternal, (ctx) => internalConfig(ports, ctx.input.params.integrationId, ctx.input.query.userId));
  return router;
}
