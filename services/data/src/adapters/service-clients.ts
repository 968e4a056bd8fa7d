import { authInternal, hooksInternal, metaInternal, metaInternalEndpoints, storageInternalEndpoints } from '@tabula/contracts';
import { clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';

/** The meta internal endpoints data calls: a table's context (by refs or by id) and the bases a `{baseName}` may mean. */
const metaEndpoints = {
  tableContextByRef: metaInternal.tableContextByRef,
  tableContext: metaInternal.tableContext,
  baseCandidates: metaInternalEndpoints.baseCandidates,
};

/** Meta's internal API as data uses it. */
export type MetaClient = EndpointClient<typeof metaEndpoints>;
/** Storage's internal attachment API (claim on write, sign on read). */
export type StorageClient = EndpointClient<typeof storageInternalEndpoints>;
/** Auth's internal API as data uses it: the users of user cells (CreatedBy, LastModifiedBy, User). */
const authEndpoints = { usersResolve: authInternal.usersResolve };
export type AuthClient = EndpointClient<typeof authEndpoints>;
/** The hooks service's internal API (sync hook dispatch). */
export type HooksClient = EndpointClient<typeof hooksInternal>;

/** The typed clients of the services data calls, built once at start-up and handed in as ports. */
export interface DataClients {
  meta: MetaClient;
  storage: StorageClient;
  hooks: HooksClient;
  auth: AuthClient;
}

/** Builds data's clients over the service transport (`clientOf` of each contract set). */
export function dataClientsOf(services: ServiceClient): DataClients {
  return {
    meta: clientOf(services, metaEndpoints),
    storage: clientOf(services, storageInternalEndpoints),
    hooks: clientOf(services, hooksInternal),
    auth: clientOf(services, authEndpoints),
  };
}
