import { dataInternal, metaInternal } from '@tabula/contracts';
import { clientOf, type EndpointClient, type ServiceClient } from '@tabula/http';

/** The meta endpoints hooks calls: a table's context (its base, columns and title). */
export const hooksMetaEndpoints = { tableContext: metaInternal.tableContext };
/** Meta's internal API, typed, as hooks uses it. */
export type MetaClient = EndpointClient<typeof hooksMetaEndpoints>;
/** Data's internal API, typed: a record (manual trigger), and "this table's hooks changed". */
export type DataClient = EndpointClient<typeof dataInternal>;

/** The typed clients of the services hooks calls, built once at start-up. */
export function serviceClients(services: ServiceClient): { meta: MetaClient; data: DataClient } {
  return { meta: clientOf(services, hooksMetaEndpoints), data: clientOf(services, dataInternal) };
}
