import type { AnyEndpoint } from '../endpoint/define-endpoint';
import { accountV1, accountV2 } from './account';
import { passwordV1, passwordV2 } from './password';
import { baseTokenCreate, baseTokenDelete, baseTokenList, orgTokenCreate, orgTokenDelete, orgTokenList } from './api-tokens';
import { memberInvite, memberList, memberRemove, memberUpdate } from './base-members';
import { authInternal } from './internal';

export * from './account';
export * from './password';
export * from './api-tokens';
export * from './base-members';
export * from './internal';
export * from './principal';
export * from './paging';

const byId = (list: AnyEndpoint[]) => Object.fromEntries(list.map((e) => [e.id, e]));

/** Every endpoint of the auth service, by operation id. */
export const authEndpoints: Record<string, AnyEndpoint> = byId([
  ...Object.values(accountV1), ...Object.values(accountV2), ...Object.values(passwordV1), ...Object.values(passwordV2),
  orgTokenList, orgTokenCreate, orgTokenDelete, baseTokenList, baseTokenCreate, baseTokenDelete,
  memberList, memberInvite, memberUpdate, memberRemove, ...Object.values(authInternal),
]);
