import { decodeEvent, IntegrationChangedSchema, topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { MetaPorts } from '../ports';
import { refreshIntegrationSources, detachIntegrationSources } from '../domain/sources/refresh-integration-sources';

/** The consumer group of meta's integration-event consumer (replicas share the work). */
export const META_INTEGRATIONS_CONSUMER = 'meta-integrations';

/**
 * Consumes `tabula.integrations`: a config change re-seals the config of every
 * source built on the integration (its pools are rebuilt on next use, here and
 * in data); a deletion detaches those sources (they keep their last config).
 */
export const integrationsConsumer = defineConsumer<MetaPorts>({
  name: 'meta.integrations',
  topics: [topics.integrations],
  delivery: { kind: 'shared', group: META_INTEGRATIONS_CONSUMER },
  async handle(ports, message) {
    if (message.type === 'integrations.integration.updated') {
      const evt = decodeEvent(IntegrationChangedSchema, message.payload);
      if (evt.configChanged) await refreshIntegrationSources(ports, evt.integrationId);
    } else if (message.type === 'integrations.integration.deleted') {
      await detachIntegrationSources(ports, decodeEvent(IntegrationChangedSchema, message.payload).integrationId);
    }
  },
});
