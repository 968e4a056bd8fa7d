import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { INTEGRATION_TYPES, integrationIdParams, jsonObject } from './integration.schemas';
import { SERVICES } from '../endpoint/access';

const tags = ['Integrations (internal)'];

/**
 * GET /internal/integrations/{integrationId}/config: the decrypted config, for
 * the meta service building a source on the integration. With `userId`, the
 * integration must be visible to that user (private ones to their creator only).
 */
export const integrationConfigInternal = defineEndpoint({
  id: 'integrationConfigInternal', method: 'GET', path: '/internal/integrations/{integrationId}/config', service: 'integrations', auth: { callers: SERVICES }, tags,
  summary: 'Decrypted config of an integration (services only)',
  params: integrationIdParams,
  query: z.object({ userId: z.string().min(1).max(64).optional() }),
  response: z.object({
    id: z.string(), title: z.string(), type: z.enum(INTEGRATION_TYPES), sub_type: z.string(), enabled: z.boolean(), config: jsonObject,
  }),
  errors: [403, 404],
});

/** The integrations endpoints other services call. */
export const integrationsInternalEndpoints = { integrationConfigInternal };
