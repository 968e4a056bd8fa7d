import { tableContext } from './table-context.internal';

/** The meta service's internal endpoints that have a contract (`/internal/...`, services only). */
export const metaInternalEndpoints = { tableContext };
