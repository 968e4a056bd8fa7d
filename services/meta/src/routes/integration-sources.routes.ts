import type Router from '@koa/router';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import { metaIntegrationSources } from '@tabula/contracts';
import type { MetaPorts } from '../ports';
import { sourcesOfIntegration } from '../repositories/source.repository';

/** Internal: the sources built on an integration (the integrations service's includeSources and delete guard). */
export function integrationSourcesRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, metaIntegrationSources, async (ctx) => {
    const rows = await sourcesOfIntegration(ports.db, ctx.input.params.integrationId);
    return { list: rows.map((s) => ({ id: s.id, base_id: s.base_id, alias: s.alias, type: s.type })) };
  });
  return router;
}
