import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

/**
 * GET /internal/integrations/{integrationId}/sources (meta): the data sources
 * built on an integration, for the integrations service (includeSources, the
 * delete guard). Meta owns sources; integrations never reads its schema.
 */
export const metaIntegrationSources = defineEndpoint({
  id: 'metaIntegrationSources', method: 'GET', path: '/internal/integrations/{integrationId}/sources', service: 'meta', auth: { callers: SERVICES },
  summary: 'Sources built on an integration (services only)', tags: ['Meta (internal)'],
  params: z.object({ integrationId: z.string().min(1).max(64) }),
  response: z.object({
    list: z.array(z.object({ id: z.string(), base_id: z.string(), alias: z.string().nullable().optional(), type: z.string().optional() })),
  }),
});

/** The meta endpoints the integrations service calls. */
export const metaIntegrationSourcesEndpoints = { metaIntegrationSources };
