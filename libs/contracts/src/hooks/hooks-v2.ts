import { aliasOf, type AnyEndpoint } from '../endpoint/define-endpoint';
import {
  hookCreate, hookDelete, hookFilterCreate, hookFilterList, hookList, hookLogList, hookSamplePayload, hookTest, hookUpdate,
} from './hooks';

/**
 * NocoDB's v2 hook paths (`/api/v2/meta/...`), served by NocoDB 0.301.3 from
 * the handlers of their v1 paths: aliases of the v1 contracts (same schemas,
 * permission, scope and use case). `hookTrigger` was born under v2.
 */
const v2 = <E extends AnyEndpoint>(endpoint: E, path: string): E =>
  aliasOf(endpoint, { id: `${endpoint.id}V2`, path: `/api/v2/meta${path}`, summary: `${endpoint.summary} (v2)` });

export const hookListV2 = v2(hookList, '/tables/{tableId}/hooks');
export const hookCreateV2 = v2(hookCreate, '/tables/{tableId}/hooks');
export const hookUpdateV2 = v2(hookUpdate, '/hooks/{hookId}');
export const hookDeleteV2 = v2(hookDelete, '/hooks/{hookId}');
export const hookLogListV2 = v2(hookLogList, '/hooks/{hookId}/logs');
export const hookFilterListV2 = v2(hookFilterList, '/hooks/{hookId}/filters');
export const hookFilterCreateV2 = v2(hookFilterCreate, '/hooks/{hookId}/filters');
export const hookTestV2 = v2(hookTest, '/tables/{tableId}/hooks/test');
export const hookSamplePayloadV2 = v2(hookSamplePayload, '/tables/{tableId}/hooks/samplePayload/{event}/{operation}/{version}');
