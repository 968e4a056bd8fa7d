import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { listApiTokenRows } from '../../repositories/api-token.repository';
import type { Paging } from '@tabula/contracts';

/** Org tokens: the caller's own. Base tokens: every token of the base. */
export function listApiTokens(ports: AuthPorts, caller: Principal, baseId: string | null, page: Paging) {
  return listApiTokenRows(ports.db, baseId === null ? { baseId, userId: caller.id } : { baseId }, page);
}
