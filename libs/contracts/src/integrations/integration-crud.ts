import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { pagingQuery } from '../common/paging';
import { flagQuery, INTEGRATION_TYPES, integrationIdParams, integrationSchema, jsonObject } from './integration.schemas';
import { manageIntegration, manageIntegrations } from './integration.access';

const tags = ['Integrations'];

/** GET /api/v2/meta/integrations */
export const integrationList = defineEndpoint({
  id: 'integrationList', method: 'GET', path: '/api/v2/meta/integrations', service: 'integrations', auth: manageIntegrations, tags,
  summary: 'List the integrations of the workspace (org creator or above)',
  query: z.object({
    type: z.enum(INTEGRATION_TYPES).optional().describe('Only integrations of this type'),
    query: z.string().max(255).optional().describe('Search in titles'),
    includeDatabaseInfo: flagQuery.describe('Add host/port/database of database integrations'),
    limit: pagingQuery.shape.limit,
    offset: pagingQuery.shape.offset,
  }),
  /** The spec: "The list response is an array of integration objects" (limit/offset page it). */
  response: z.array(integrationSchema), errors: [403],
});

/** GET /api/v2/meta/integrations/{integrationId} */
export const integrationGet = defineEndpoint({
  id: 'integrationGet', method: 'GET', path: '/api/v2/meta/integrations/{integrationId}', service: 'integrations', auth: manageIntegration, tags,
  summary: 'Read one integration (org creator or above); config only on request (whole to its creator, masked to other org admins)',
  params: integrationIdParams,
  query: z.object({ includeConfig: flagQuery, includeSources: flagQuery }),
  response: integrationSchema, errors: [404],
});

/** POST /api/v2/meta/integrations */
export const integrationCreate = defineEndpoint({
  id: 'integrationCreate', method: 'POST', path: '/api/v2/meta/integrations', service: 'integrations', auth: manageIntegrations, tags,
  summary: 'Create an integration; its config is validated against its type schema and encrypted at rest',
  body: z.object({
    title: z.string().trim().min(1, 'title is required').max(128, 'title must be at most 128 characters'),
    type: z.enum(INTEGRATION_TYPES),
    sub_type: z.string().min(1).max(64),
    config: jsonObject.optional(),
    meta: jsonObject.nullish(),
    is_private: z.boolean().optional(),
    is_default: z.boolean().optional(),
    enabled: z.boolean().optional(),
    copy_from_id: z.string().min(1).max(64).optional().describe('Start from this integration\'s config'),
  }),
  response: integrationSchema, errors: [403, 404],
  example: { request: { title: 'Warehouse', type: 'database', sub_type: 'pg', config: { client: 'pg', connection: { host: 'db.example.com', port: 5432, user: 'u', password: '<secret>', database: 'sales' } } } },
});

/** PATCH /api/v2/meta/integrations/{integrationId} */
export const integrationUpdate = defineEndpoint({
  id: 'integrationUpdate', method: 'PATCH', path: '/api/v2/meta/integrations/{integrationId}', service: 'integrations', auth: manageIntegration, tags,
  summary: 'Update title, meta, flags; config is merged into the stored one',
  params: integrationIdParams,
  body: z.object({
    title: z.string().trim().min(1).max(128, 'title must be at most 128 characters').optional(),
    config: jsonObject.optional(),
    meta: jsonObject.nullish(),
    is_private: z.boolean().optional(),
    is_default: z.boolean().optional(),
    enabled: z.boolean().optional(),
  }),
  response: integrationSchema, errors: [403, 404],
});

/** DELETE /api/v2/meta/integrations/{integrationId} */
export const integrationDelete = defineEndpoint({
  id: 'integrationDelete', method: 'DELETE', path: '/api/v2/meta/integrations/{integrationId}', service: 'integrations', auth: manageIntegration, tags,
  summary: 'Delete; refused while sources use it unless force=true (which detaches them)',
  params: integrationIdParams,
  query: z.object({ force: flagQuery }),
  response: z.boolean(), errors: [403, 404],
});
