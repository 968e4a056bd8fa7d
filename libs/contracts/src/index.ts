/**
 * @tabula/contracts: the shared contracts between services. Event payloads are
 * generated from proto/ (`npx buf generate`, output in ./gen, never hand-edited).
 */
export * from './gen/tabula/events/v1/common_pb';
export * from './gen/tabula/events/v1/records_pb';
export * from './gen/tabula/events/v1/meta_pb';
export * from './gen/tabula/events/v1/auth_pb';
export * from './gen/tabula/events/v1/integrations_pb';
export * from './gen/tabula/events/v1/comments_pb';
export * from './gen/tabula/events/v1/hooks_pb';

export { encodeEvent, decodeEvent, CURRENT_SCHEMA_VERSION } from './event-codec';
export { topics } from './topics';
export type { Topic } from './topics';
export { timestampDate, timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
export * from './internal/meta-internal';
export * from './internal/auth-internal';
export * from './endpoint/define-endpoint';
export * from './endpoint/access';
export * from './openapi/build-openapi';
export * from './openapi/docs-page';
export * from './common/error-body';
export * from './common/paging';
export * from './common/refs';
export * from './gateway';
export * from './auth';
export * from './meta';
export * from './data';
export * from './hooks';
export * from './registry';
export * from './hooks';
export * from './integrations';
export * from './meta/integration-sources';
export * from './comments';
export * from './data';
export * from './meta';
export * from './storage';
export * from './realtime';
export { decodeRecordsChanged, encodeRecordsChanged, type DecodedRecordsChanged, type RecordsChangedFields } from './records-changed-codec';
