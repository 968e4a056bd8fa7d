import type { Principal } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { listApiTokenRows } from '../../repositories/api-token.repository';
import type { PageInput } from '../../presenters/page.presenter';

/** Org tokens: the caller's own. Base tokens: every token of the base. */
export function listApiTokens(ports: AuthPorts, caller: Principal, baseId: string | null, page: PageInput) {
  return listApiTokenRows(ports.db, baseId === null ? { baseId, userId: caller.id } : { baseId }, page);
}
