import { withOutbox } from '@tabula/events';
import { InvalidationReason } from '@tabula/contracts';
import { errors } from '@tabula/http';
import { isSuper, roleAtLeast } from '@tabula/auth';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { deleteApiTokenRow, findApiTokenById, type ApiTokenRow } from '../../repositories/api-token.repository';
import { roleIn, tokenNotFound, type BaseInScope, type OrgTokenInScope } from '../auth-access';

/**
 * May the caller revoke another member's base-scoped token? Only when the
 * caller's role in the base is at least the maker's: a creator revokes
 * editors' and creators' tokens, never the owner's (README "API tokens").
 * A maker who is no longer a member leaves the token to any manager.
 */
async function mayRevokeBaseToken(ports: AuthPorts, base: BaseInScope, makerId: string): Promise<boolean> {
  if (makerId === base.principal.id || isSuper(base.principal)) return true;
  const makerRole = await ports.baseAccess.roleOf({ kind: 'user', id: makerId, roles: [] }, base.value.id);
  return makerRole === undefined || roleAtLeast(roleIn(base), makerRole);
}

/**
 * Deletes the row; revocation is published (through the outbox, with the
 * delete) so gateways drop the cached principal at once.
 */
async function revoke(ports: AuthPorts, row: ApiTokenRow): Promise<void> {
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteApiTokenRow(trx, row.id);
    await enqueuePrincipalInvalidated(trx, row.user_id, InvalidationReason.TOKEN_REVOKED, row.id);
  });
}

/** Revokes one of the caller's org tokens (the guard found it and admitted its owner). */
export async function deleteOrgToken(ports: AuthPorts, token: OrgTokenInScope): Promise<void> {
  await revoke(ports, token.value);
}

/**
 * Revokes a token of a base whose tokens the caller may manage (checked by
 * the guard): its maker, super, or a member whose role is at least the maker's.
 */
export async function deleteBaseToken(ports: AuthPorts, base: BaseInScope, tokenId: string): Promise<void> {
  const row = await findApiTokenById(ports.db, tokenId);
  if (!row || row.base_id !== base.value.id) throw tokenNotFound(tokenId);
  if (!(await mayRevokeBaseToken(ports, base, row.user_id))) {
    throw errors.forbidden("Forbidden - only a member whose role is at least the token maker's may revoke it");
  }
  await revoke(ports, row);
}
