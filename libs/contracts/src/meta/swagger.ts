import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { baseParams, META } from './paging';
import { PUBLIC, USERS } from '../endpoint/access';
import { onBase } from './scopes';

/** A base's own OpenAPI document: its tables' records API with concrete record schemas. */
export const baseSwagger = defineEndpoint({
  id: 'baseSwagger', method: 'GET', path: `${META}/projects/{baseId}/swagger.json`, service: 'meta', auth: { callers: USERS, permission: 'base.read', scope: onBase },
  summary: "OpenAPI 3.1 document of a base's tables (for generating a typed client)", tags: ['Bases'], errors: [403, 404],
  params: baseParams, response: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document' }),
});

/** The docs page of a base's document (the page is public; it fetches the document with the visitor's token). */
export const baseSwaggerPage = defineEndpoint({
  id: 'baseSwaggerPage', method: 'GET', path: `${META}/projects/{baseId}/swagger`, service: 'meta', auth: { callers: PUBLIC },
  summary: "Docs page of a base's document (HTML; pass ?token=<JWT or API token>)", tags: ['Bases'],
  params: baseParams, response: z.string(), responseContentType: 'text/html',
});
