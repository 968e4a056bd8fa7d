import type { AnyEndpoint } from './endpoint/define-endpoint';
import { hooksInternalEndpoints } from './hooks';
import { integrationsEndpoints } from './integrations';
import { metaIntegrationSourcesEndpoints } from './meta/integration-sources';
import { commentsEndpoints } from './comments';
import { dataInternalEndpoints, dataNestedEndpoints } from './data';
import { metaInternalEndpoints } from './meta';
import { storageEndpoints } from './storage';
import { storageInternalEndpoints, dataAttachmentEndpoints } from './storage/storage-internal.endpoints';

/**
 * Every endpoint contract of Tabula, public and internal. Each service's
 * contracts folder (`libs/contracts/src/<service>/`) exports a record of its
 * endpoints; add it here once. The gateway's OpenAPI document, the route
 * coverage test and the isolation matrix read this list.
 */
export const endpointGroups: Record<string, Record<string, AnyEndpoint>> = {
  hooksInternal: hooksInternalEndpoints,
  integrations: integrationsEndpoints,
  metaIntegrationSources: metaIntegrationSourcesEndpoints,
  comments: commentsEndpoints,
  dataInternal: dataInternalEndpoints,
  metaInternal: metaInternalEndpoints,
  storage: storageEndpoints,
  storageInternal: storageInternalEndpoints,
  dataAttachments: dataAttachmentEndpoints,
  dataNested: dataNestedEndpoints,
};

/** All endpoints as one list. */
export function allEndpoints(): AnyEndpoint[] {
  return Object.values(endpointGroups).flatMap((group) => Object.values(group));
}
