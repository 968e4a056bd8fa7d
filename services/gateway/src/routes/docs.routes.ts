import Router from '@koa/router';
import { allEndpoints, apiDocsAsset, apiDocsPage, buildOpenApi, docsPageHtml, openApiDocument } from '@tabula/contracts';
import { errors, route } from '@tabula/http';
import { DocsAssets } from '../adapters/docs-assets';
import { PACKAGE_VERSION } from './system.routes';

const DESCRIPTION = [
  'The Tabula REST API, compatible with NocoDB v1.',
  'Authenticate with `xc-auth: <JWT>` (from sign-in), `xc-token: <API token>` or `Authorization: Bearer <either>`.',
  'Errors answer `{ error, message, msg }`. A base\'s own record schemas: `GET /api/v1/db/meta/projects/{baseId}/swagger.json`.',
].join('\n\n');

/** The API's OpenAPI 3.1 document, generated from every public contract. */
export function apiDocument(): Record<string, unknown> {
  return buildOpenApi(allEndpoints(), { title: 'Tabula API', version: PACKAGE_VERSION, description: DESCRIPTION });
}

/** `GET /api/v1/openapi.json` and the docs page at `/api/docs` (swagger-ui-dist, no CDN). */
export function docsRoutes(assets = new DocsAssets()): Router {
  const router = new Router();
  let document: Record<string, unknown> | undefined;
  route(router, openApiDocument, () => (document ??= apiDocument()));
  route(router, apiDocsPage, (ctx) => {
    ctx.type = 'html';
    return docsPageHtml('Tabula API', '/api/v1/openapi.json');
  });
  route(router, apiDocsAsset, (ctx) => {
    const asset = assets.get(ctx.input.params.file);
    if (!asset) throw errors.notFound('ERR_NOT_FOUND', `No docs file '${ctx.input.params.file}'`);
    ctx.type = asset.type;
    ctx.set('cache-control', 'public, max-age=86400');
    return asset.body;
  });
  return router;
}
