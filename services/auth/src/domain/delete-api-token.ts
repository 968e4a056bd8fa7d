import { InvalidationReason } from '@tabula/contracts';
import { errors } from '@tabula/http';
import { isSuper, type Principal } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { publishPrincipalInvalidated } from '../events/auth-events.producer';
import { apiTokenRepository } from '../repositories/api-token.repository';

/**
 * Deletes a token of the given scope; only its owner (or super, or a base
 * manager for base tokens — checked by the route) may. Revocation is published
 * so gateways drop the cached principal at once.
 */
export async function deleteApiToken(ports: AuthPorts, caller: Principal, tokenId: string, baseId: string | null): Promise<void> {
  const row = await apiTokenRepository.findById(ports.db, tokenId);
  const inScope = row && (baseId === null ? row.base_id === null : row.base_id === baseId);
  if (!row || !inScope) throw errors.notFound('ERR_TOKEN_NOT_FOUND', `Token '${tokenId}' not found`);
  if (baseId === null && row.user_id !== caller.id && !isSuper(caller)) throw errors.forbidden();
  await apiTokenRepository.delete(ports.db, tokenId);
  await publishPrincipalInvalidated(ports, row.user_id, InvalidationReason.TOKEN_REVOKED, row.id);
}
