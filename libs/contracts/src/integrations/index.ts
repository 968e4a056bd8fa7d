import { integrationCreate, integrationDelete, integrationGet, integrationList, integrationUpdate } from './integration-crud';
import { integrationTypeGet, integrationTypeList } from './integration-types';
import { integrationEndpointCall, integrationStore } from './integration-calls';
import { integrationConfigInternal, integrationsInternalEndpoints } from './integration-internal';

export * from './integration.schemas';
export * from './integration-crud';
export * from './integration-types';
export * from './integration-calls';
export * from './integration-internal';

/** Every endpoint of the integrations service (public and internal). */
export const integrationsEndpoints = {
  integrationList, integrationGet, integrationCreate, integrationUpdate, integrationDelete,
  integrationTypeList, integrationTypeGet, integrationStore, integrationEndpointCall, integrationConfigInternal,
};
export { integrationsInternalEndpoints };
