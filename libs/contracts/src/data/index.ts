import { readRecord } from './read-record';
import { nestedAdd, nestedExcludedList, nestedList, nestedRemove } from './nested-records';

export { nestedAdd, nestedExcludedList, nestedList, nestedRemove } from './nested-records';

/** The data service's internal endpoints (`/internal/data/...`, services only). */
export const dataInternalEndpoints = { readRecord };

/** The data service's nested record (link) endpoints. */
export const dataNestedEndpoints = { nestedList, nestedExcludedList, nestedAdd, nestedRemove };
