import { endpointsIn, type AnyEndpoint } from '../endpoint/define-endpoint';
import * as recordsV2 from './records-v2';
import * as linksV2 from './links-v2';
import * as recordsV3 from './records-v3';
import * as aggregates from './aggregates';
import * as recordsV2Bulk from './records-v2-bulk';
import { recordEndpointList } from './records';
import { bulkDelete, bulkDeleteAll, bulkInsert, bulkUpdate, bulkUpdateAll, bulkUpsert } from './bulk';
import { readRecord } from './read-record.internal';
import { syncHooksChanged } from './sync-hooks.internal';
import { readRecord as recordExists } from './read-record';
import { nestedAdd, nestedExcludedList, nestedList, nestedRemove } from './nested-records';

export * from './record-query';
export * from './table-scope';
export * from './records';
export * from './bulk';
export * from './read-record.internal';
export * from './sync-hooks.internal';
export { nestedAdd, nestedExcludedList, nestedList, nestedRemove } from './nested-records';
export * from './records-v2';
export * from './links-v2';
export * from './records-v3';
export * from './aggregates';
export * from './records-v2-bulk';

/** The data service's internal API; `clientOf(services, dataInternal)`. */
export const dataInternal = { readRecord, syncHooksChanged };

/** Whether a record of a base's table exists, with its canonical id (the comments service asks it). */
export const dataInternalEndpoints = { readRecord: recordExists };

/** The data service's nested record (link) endpoints. */
export const dataNestedEndpoints = { nestedList, nestedExcludedList, nestedAdd, nestedRemove };

/** Every endpoint of the data service, by operation id. */
export const dataEndpoints: Record<string, AnyEndpoint> = {
  ...Object.fromEntries([
    ...recordEndpointList, bulkUpdateAll, bulkDeleteAll, bulkUpsert, bulkInsert, bulkUpdate, bulkDelete, readRecord, syncHooksChanged, recordExists,
    nestedList, nestedExcludedList, nestedAdd, nestedRemove,
  ].map((e) => [e.id, e])),
  ...endpointsIn(recordsV2, linksV2, recordsV3, aggregates, recordsV2Bulk),
};
