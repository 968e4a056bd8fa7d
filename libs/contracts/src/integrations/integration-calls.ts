import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { integrationIdParams, jsonObject } from './integration.schemas';
import { manageIntegration } from './integration.access';

const tags = ['Integrations'];

/** One key-value record of an integration's store. */
export const storeRecordSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** POST /api/v2/integrations/{integrationId}/store */
export const integrationStore = defineEndpoint({
  id: 'integrationStore', method: 'POST', path: '/api/v2/integrations/{integrationId}/store', service: 'integrations', auth: manageIntegration, tags,
  summary: 'Read the integration\'s own records: list (limit/offset), get (key; 404 when absent) or sum (fields)',
  params: integrationIdParams,
  body: z.discriminatedUnion('op', [
    z.object({ op: z.literal('list'), limit: z.number().int().min(1).max(1000).optional(), offset: z.number().int().min(0).optional() }),
    z.object({ op: z.literal('get'), key: z.string().min(1).max(255) }),
    z.object({ op: z.literal('sum'), fields: z.array(z.string().min(1).max(128)).min(1).max(50) }),
  ]),
  response: z.union([
    z.object({ list: z.array(storeRecordSchema), pageInfo: z.object({ totalRows: z.number(), limit: z.number(), offset: z.number() }) }),
    storeRecordSchema,
    z.record(z.string(), z.number()),
  ]),
  errors: [404],
});

/** POST /api/v2/integrations/{integrationId}/{endpoint} */
export const integrationEndpointCall = defineEndpoint({
  id: 'integrationEndpointCall', method: 'POST', path: '/api/v2/integrations/{integrationId}/{endpoint}', service: 'integrations', auth: manageIntegration, tags,
  summary: 'Call an endpoint of the integration (database: testConnection, listTables, listColumns; ai: chat)',
  params: integrationIdParams.extend({ endpoint: z.string().min(1).max(64) }),
  body: jsonObject,
  response: z.unknown(),
  errors: [404, 502, 504],
  example: { request: { messages: [{ role: 'user', content: 'Hello' }] } },
});
