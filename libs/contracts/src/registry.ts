import type { AnyEndpoint } from './endpoint/define-endpoint';
import { gatewayEndpoints } from './gateway';
import { authEndpoints } from './auth';
import { metaEndpoints } from './meta';
import { dataEndpoints } from './data';
import { hooksEndpoints } from './hooks';
import { integrationsEndpoints } from './integrations';
import { metaIntegrationSourcesEndpoints } from './meta/integration-sources';
import { commentsEndpoints } from './comments';
import { storageEndpoints } from './storage';
import { realtimeEndpoints } from './realtime';
import { storageInternalEndpoints, storageShareEndpoints, dataAttachmentEndpoints } from './storage/storage-internal.endpoints';

/**
 * Every endpoint contract of Tabula, public and internal. Each service's
 * contracts folder (`libs/contracts/src/<service>/`) exports a record of its
 * endpoints; add it here once. The gateway's OpenAPI document, the route
 * coverage test and the isolation matrix read this list.
 */
export const endpointGroups: Record<string, Record<string, AnyEndpoint>> = {
  gateway: gatewayEndpoints,
  auth: authEndpoints,
  meta: metaEndpoints,
  data: dataEndpoints,
  hooks: hooksEndpoints,
  integrations: integrationsEndpoints,
  metaIntegrationSources: metaIntegrationSourcesEndpoints,
  comments: commentsEndpoints,
  storage: storageEndpoints,
  storageInternal: storageInternalEndpoints,
  storageShare: storageShareEndpoints,
  dataAttachments: dataAttachmentEndpoints,
  realtime: realtimeEndpoints,
};

/** All endpoints as one list. */
export function allEndpoints(): AnyEndpoint[] {
  return Object.values(endpointGroups).flatMap((group) => Object.values(group));
}
