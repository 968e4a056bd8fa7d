import { withOutbox } from '@tabula/events';
import { InvalidationReason } from '@tabula/contracts';
import { errors } from '@tabula/http';
import { isSuper, type Principal, roleAtLeast } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { deleteApiTokenRow, findApiTokenById } from '../../repositories/api-token.repository';

/**
 * May the caller revoke another member's base-scoped token? Only when the
 * caller's role in the base is at least the maker's: a creator revokes
 * editors' and creators' tokens, never the owner's (README "API tokens").
 * A maker who is no longer a member leaves the token to any manager.
 */
async function mayRevokeBaseToken(ports: AuthPorts, caller: Principal, makerId: string, baseId: string): Promise<boolean> {
  if (makerId === caller.id || isSuper(caller)) return true;
  const [callerRole, makerRole] = await Promise.all([
    ports.baseAccess.roleOf(caller, baseId),
    ports.baseAccess.roleOf({ kind: 'user', id: makerId, roles: [] }, baseId),
  ]);
  return makerRole === undefined || roleAtLeast(callerRole, makerRole);
}

/**
 * Deletes a token of the given scope; only its maker (or super) may, or for
 * base tokens a base manager (checked by the route) whose role is at least the
 * maker's. Revocation is published (through the outbox, with the delete) so gateways
 * drop the cached principal at once.
 */
export async function deleteApiToken(ports: AuthPorts, caller: Principal, tokenId: string, baseId: string | null): Promise<void> {
  const row = await findApiTokenById(ports.db, tokenId);
  const inScope = row && (baseId === null ? row.base_id === null : row.base_id === baseId);
  // Another user's org token answers like a missing one: ids never reveal what exists.
  const othersOrgToken = row && baseId === null && row.user_id !== caller.id && !isSuper(caller);
  if (!row || !inScope || othersOrgToken) throw errors.notFound('ERR_TOKEN_NOT_FOUND', `Token '${tokenId}' not found`);
  if (baseId !== null && !(await mayRevokeBaseToken(ports, caller, row.user_id, baseId))) {
    throw errors.forbidden("Forbidden - only a member whose role is at least the token maker's may revoke it");
  }
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteApiTokenRow(trx, tokenId);
    await enqueuePrincipalInvalidated(trx, row.user_id, InvalidationReason.TOKEN_REVOKED, row.id);
  });
}
