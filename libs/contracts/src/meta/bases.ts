import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { listOf } from '../common/paging';
import { baseParams, META, metaPageQuery } from './paging';
import { baseSchema, copySchema } from './resources';
import { ACCOUNT, USERS } from '../endpoint/access';
import { onBase } from './scopes';

/** Body of base create; `external: true` with `sources` names an external database. */
export const createBaseSchema = z.looseObject({
  title: z.string().trim().min(1, 'title is required').max(255),
  description: z.string().max(8192).nullish(),
  color: z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'color must be a hex color').nullish(),
  meta: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  external: z.boolean().default(false),
  sources: z.array(z.looseObject({
    type: z.enum(['pg', 'mysql2', 'sqlite3']).optional(), config: z.unknown().optional(), alias: z.string().optional(),
    /** Build the source on this integration's config (type and config come from it). */
    fk_integration_id: z.string().min(1).max(64).optional(),
  })).default([]),
});

/** Body of base update (spec: title, color, order, meta; description too). */
export const updateBaseSchema = z.looseObject({
  title: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(8192).nullish(),
  color: z.string().regex(/^#[0-9a-fA-F]{3,8}$/, 'color must be a hex color').nullish(),
  order: z.number().optional(),
  meta: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
});

/** Body of base and table duplicate. */
export const duplicateSchema = z.looseObject({
  title: z.string().trim().min(1).max(255).optional(),
  options: z.object({
    excludeData: z.boolean().default(false),
    excludeViews: z.boolean().default(false),
    excludeHooks: z.boolean().default(false),
  }).partial().default({}),
});

const common = { service: 'meta', tags: ['Bases'] } as const;
const baseExample = { id: 'p1', title: 'Sales', description: '', color: null, meta: {}, order: 1, status: null, deleted: false, sources: [] };

export const baseList = defineEndpoint({
  ...common, id: 'baseList', method: 'GET', path: `${META}/projects`, summary: 'List bases the caller may see',
  auth: { callers: USERS },
  query: metaPageQuery, response: listOf(baseSchema),
});
export const baseCreate = defineEndpoint({
  ...common, id: 'baseCreate', method: 'POST', path: `${META}/projects`, summary: 'Create a base',
  description: 'Org-level creators (and super) only; a base-scoped API token acts only inside its base.',
  auth: { callers: ACCOUNT, permission: 'base.create' }, errors: [403],
  body: createBaseSchema, response: baseSchema, example: { request: { title: 'Sales' }, response: baseExample },
});
export const baseGet = defineEndpoint({
  ...common, id: 'baseGet', method: 'GET', path: `${META}/projects/{baseId}`, summary: 'Read a base',
  auth: { callers: USERS, permission: 'base.read', scope: onBase },
  params: baseParams, response: baseSchema, errors: [403, 404], example: { response: baseExample },
});
export const baseUpdate = defineEndpoint({
  ...common, id: 'baseUpdate', method: 'PATCH', path: `${META}/projects/{baseId}`, summary: 'Update a base (answers 1)',
  auth: { callers: USERS, permission: 'base.update', scope: onBase },
  params: baseParams, body: updateBaseSchema, response: z.number(), errors: [403, 404], example: { request: { title: 'Sales 2024' }, response: 1 },
});
export const baseDelete = defineEndpoint({
  ...common, id: 'baseDelete', method: 'DELETE', path: `${META}/projects/{baseId}`, summary: 'Delete a base',
  auth: { callers: USERS, permission: 'base.delete', scope: onBase },
  params: baseParams, response: z.boolean(), errors: [403, 404], example: { response: true },
});
export const baseInfoGet = defineEndpoint({
  ...common, id: 'baseInfoGet', method: 'GET', path: `${META}/projects/{baseId}/info`, summary: 'Base info (NocoDB)',
  auth: { callers: USERS, permission: 'base.read', scope: onBase },
  params: baseParams, response: z.looseObject({}), errors: [403, 404],
});
export const baseDuplicate = defineEndpoint({
  ...common, id: 'baseDuplicate', method: 'POST', path: `${META}/duplicate/{baseId}`, summary: 'Duplicate a base',
  // A copy is a new base: base create's org permission too, and no base-scoped token.
  auth: { callers: ACCOUNT, permission: ['base.update', 'base.create'], scope: onBase },
  params: baseParams, body: duplicateSchema, response: copySchema, errors: [403, 404],
  example: { request: { options: { excludeData: true } }, response: { id: 'p2', name: 'Sales copy' } },
});
