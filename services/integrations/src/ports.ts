import type { CommonPorts } from '@tabula/runtime';
import type { OutboxRelay } from '@tabula/events';
import type { EndpointClient } from '@tabula/http';
import type { metaIntegrationSourcesEndpoints } from '@tabula/contracts';
import type { IntegrationsConfig } from './config';
import type { AtRestRing } from '@tabula/runtime';

/** What the integrations service is handed at start-up. */
export interface IntegrationsPorts extends CommonPorts {
  config: IntegrationsConfig;
  /** Seals and opens configs at rest (SVC_ENCRYPTION_KEYS). */
  ring: AtRestRing;
  relay: OutboxRelay;
  /** The meta service's internal endpoints this service calls. */
  meta: EndpointClient<typeof metaIntegrationSourcesEndpoints>;
}
