import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { INTEGRATION_TYPES, jsonObject } from './integration.schemas';
import { USERS } from '../endpoint/access';

const tags = ['Integrations'];

/** One sub-type as the registry describes it. */
export const integrationTypeInfoSchema = z.object({
  type: z.enum(INTEGRATION_TYPES),
  sub_type: z.string(),
  title: z.string(),
  icon: z.string().describe('Icon name'),
  /** Dotted paths of the config fields that are secret (masked for non-owners). */
  secret_fields: z.array(z.string()),
  /** Endpoints callable through POST /api/v2/integrations/{id}/{endpoint}. */
  endpoints: z.array(z.string()),
});

/** GET /api/v2/integrations */
export const integrationTypeList = defineEndpoint({
  id: 'integrationTypeList', method: 'GET', path: '/api/v2/integrations', service: 'integrations', auth: { callers: USERS }, tags,
  summary: 'Every integration type with its sub-types',
  response: z.object({
    list: z.array(z.object({ type: z.enum(INTEGRATION_TYPES), subTypes: z.array(integrationTypeInfoSchema) })),
  }),
});

/** GET /api/v2/integrations/{type}/{subType} */
export const integrationTypeGet = defineEndpoint({
  id: 'integrationTypeGet', method: 'GET', path: '/api/v2/integrations/{type}/{subType}', service: 'integrations', auth: { callers: USERS }, tags,
  summary: 'The config JSON schema, title, icon and secret fields of a sub-type',
  params: z.object({ type: z.string().min(1).max(64), subType: z.string().min(1).max(64) }),
  response: integrationTypeInfoSchema.extend({ schema: jsonObject.describe('JSON Schema of the config') }),
  errors: [404],
});
