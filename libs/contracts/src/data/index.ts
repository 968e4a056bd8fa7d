import type { AnyEndpoint } from '../endpoint/define-endpoint';
import { recordEndpointList } from './records';
import { bulkDelete, bulkDeleteAll, bulkInsert, bulkUpdate, bulkUpdateAll, bulkUpsert } from './bulk';
import { readRecord } from './read-record.internal';

export * from './record-query';
export * from './records';
export * from './bulk';
export * from './read-record.internal';

/** The data service's internal API; `clientOf(services, dataInternal)`. */
export const dataInternal = { readRecord };

/** Every endpoint of the data service, by operation id. */
export const dataEndpoints: Record<string, AnyEndpoint> = Object.fromEntries([
  ...recordEndpointList, bulkUpdateAll, bulkDeleteAll, bulkUpsert, bulkInsert, bulkUpdate, bulkDelete, readRecord,
].map((e) => [e.id, e]));
