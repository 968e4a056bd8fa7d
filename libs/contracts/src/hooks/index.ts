import type { AnyEndpoint } from '../endpoint/define-endpoint';
import {
  hookCreate, hookDelete, hookFilterCreate, hookFilterList, hookList, hookLogList, hookSamplePayload, hookTest, hookTrigger, hookUpdate,
} from './hooks';
import { hooksInternal } from './dispatch-sync.internal';

export * from './hook-body';
export * from './hooks';
export * from './dispatch-sync.internal';

/** Every endpoint of the hooks service, by operation id. */
export const hooksEndpoints: Record<string, AnyEndpoint> = Object.fromEntries([
  hookList, hookCreate, hookUpdate, hookDelete, hookLogList, hookFilterList, hookFilterCreate, hookTest, hookSamplePayload, hookTrigger,
  ...Object.values(hooksInternal),
].map((e) => [e.id, e]));
