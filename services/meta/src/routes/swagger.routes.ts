import type Router from '@koa/router';
import { baseSwagger, baseSwaggerPage, docsPageHtml } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { baseSwagger as buildBaseSwagger } from '../domain/bases/base-swagger';

/** A base's own OpenAPI document and its docs page (assets served by the gateway under /api/docs/). */
export function swaggerRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, baseSwagger, async (ctx) => buildBaseSwagger(ports, scopeOf(ctx)));
  route(router, baseSwaggerPage, (ctx) => {
    ctx.type = 'html';
    const id = encodeURIComponent(ctx.input.params.baseId);
    return docsPageHtml('Base API', `/api/v1/db/meta/projects/${id}/swagger.json`);
  });
  return router;
}
