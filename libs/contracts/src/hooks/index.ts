import { endpointsIn, type AnyEndpoint } from '../endpoint/define-endpoint';
import {
  hookCreate, hookDelete, hookFilterCreate, hookFilterList, hookList, hookLogList, hookSamplePayload, hookTest, hookTrigger, hookUpdate,
} from './hooks';
import { hooksInternal } from './dispatch-sync.internal';
import { hooksCopy, hooksDeleteOfTables } from './hooks-copy';
import * as hooksV2 from './hooks-v2';

export * from './hook-body';
export * from './hooks';
export * from './dispatch-sync.internal';
export * from './hooks-v2';
export { hooksCopy, hooksDeleteOfTables } from './hooks-copy';

/** The hooks service's internal endpoints meta uses to copy and remove hooks with tables. */
export const hooksInternalEndpoints = { hooksCopy, hooksDeleteOfTables };

/** Every endpoint of the hooks service, by operation id. */
export const hooksEndpoints: Record<string, AnyEndpoint> = {
  ...Object.fromEntries([
    hookList, hookCreate, hookUpdate, hookDelete, hookLogList, hookFilterList, hookFilterCreate, hookTest, hookSamplePayload, hookTrigger,
    ...Object.values(hooksInternal), hooksCopy, hooksDeleteOfTables,
  ].map((e) => [e.id, e])),
  ...endpointsIn(hooksV2),
};
