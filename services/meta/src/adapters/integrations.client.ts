import { clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';
import { integrationsInternalEndpoints } from '@tabula/contracts';

/** The integrations service's internal API, typed (decrypted configs for sources built on integrations). */
export function integrationsClient(services: ServiceClient): EndpointClient<typeof integrationsInternalEndpoints> {
  return clientOf(services, integrationsInternalEndpoints);
}
