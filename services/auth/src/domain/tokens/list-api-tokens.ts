import type { Principal } from '@tabula/auth';
import type { Paging } from '@tabula/contracts';
import type { AuthPorts } from '../../ports';
import { listApiTokenRows } from '../../repositories/api-token.repository';
import type { BaseInScope } from '../auth-access';

/** The caller's own org tokens. */
export function listOrgTokens(ports: AuthPorts, caller: Principal, page: Paging) {
  return listApiTokenRows(ports.db, { baseId: null, userId: caller.id }, page);
}

/** Every token of a base whose tokens the caller may manage (checked by the guard). */
export function listBaseTokens(ports: AuthPorts, base: BaseInScope, page: Paging) {
  return listApiTokenRows(ports.db, { baseId: base.value.id }, page);
}
