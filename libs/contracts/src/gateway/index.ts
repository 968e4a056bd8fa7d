import { z } from 'zod';
import { defineEndpoint, type AnyEndpoint } from '../endpoint/define-endpoint';
import { PUBLIC } from '../endpoint/access';

const healthSchema = z.object({ message: z.string(), timestamp: z.number(), uptime: z.number().describe('Seconds since start') });
const versionSchema = z.object({
  currentVersion: z.string().describe('The NocoDB release this API matches'), releaseVersion: z.string(),
  tabulaVersion: z.string().describe("Tabula's own version (package.json)"),
});
const common = { service: 'gateway', auth: { callers: PUBLIC }, tags: ['System'] } as const;

function systemEndpoints(v: 'v1' | 'v2') {
  const s = v === 'v1' ? '' : 'V2';
  return {
    health: defineEndpoint({
      ...common, id: `health${s}`, method: 'GET', path: `/api/${v}/health`, summary: 'Liveness of the API', response: healthSchema,
      example: { response: { message: 'OK', timestamp: 1700000000000, uptime: 12.5 } },
    }),
    version: defineEndpoint({
      ...common, id: `version${s}`, method: 'GET', path: `/api/${v}/version`, summary: "The NocoDB release this API matches, and Tabula's own version", response: versionSchema,
    }),
  };
}

/** Health and version under /api/v1 and /api/v2. */
export const systemV1 = systemEndpoints('v1');
export const systemV2 = systemEndpoints('v2');

/** This document. */
export const openApiDocument = defineEndpoint({
  ...common, id: 'openApiDocument', method: 'GET', path: '/api/v1/openapi.json', summary: 'The OpenAPI 3.1 document of the API',
  response: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document' }),
});
/** The docs page rendering the document (swagger-ui-dist, served by the gateway). */
export const apiDocsPage = defineEndpoint({
  ...common, id: 'apiDocsPage', method: 'GET', path: '/api/docs', summary: 'API docs page (HTML)',
  response: z.string(), responseContentType: 'text/html',
});
/** The docs page's scripts and styles. */
export const apiDocsAsset = defineEndpoint({
  ...common, id: 'apiDocsAsset', method: 'GET', path: '/api/docs/{file}', summary: 'A file of the docs page', errors: [404],
  params: z.object({ file: z.string().regex(/^[A-Za-z0-9._-]+$/) }), responseContentType: 'application/octet-stream',
  response: z.custom<Buffer | string>((v) => typeof v === 'string' || Buffer.isBuffer(v)).meta({ type: 'string', format: 'binary' }),
});

/** Every endpoint the gateway serves itself, by operation id. */
export const gatewayEndpoints: Record<string, AnyEndpoint> = Object.fromEntries([
  ...Object.values(systemV1), ...Object.values(systemV2), openApiDocument, apiDocsPage, apiDocsAsset,
].map((e) => [e.id, e]));
