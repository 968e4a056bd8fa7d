import { readRecord } from './read-record';

/** The data service's internal endpoints (`/internal/data/...`, services only). */
export const dataInternalEndpoints = { readRecord };
