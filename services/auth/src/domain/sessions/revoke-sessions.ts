import { deleteApiTokensOfUser } from '../../repositories/api-token.repository';
import { invalidatePasswordResetsOfUser } from '../../repositories/password-reset.repository';
import { revokeRefreshTokensOfUser } from '../../repositories/refresh-token.repository';
import { updateUser, type UserRow } from '../../repositories/user.repository';
import type { Db } from '../../repositories/schema';
import { newTokenVersion } from '../../security/secret-token';

/**
 * Ends every session of a user inside the caller's transaction: a new
 * token_version kills every JWT issued before, and all refresh tokens are
 * revoked. With a new password hash (change or reset), outstanding reset
 * links and every API token of the user die too (README "API tokens and
 * password changes").
 */
export async function revokeSessions(trx: Db, userId: string, passwordHash?: string): Promise<void> {
  const patch: Partial<Pick<UserRow, 'password_hash' | 'token_version'>> = { token_version: newTokenVersion() };
  if (passwordHash) patch.password_hash = passwordHash;
  await updateUser(trx, userId, patch);
  await revokeRefreshTokensOfUser(trx, userId);
  if (passwordHash) {
    await invalidatePasswordResetsOfUser(trx, userId);
    await deleteApiTokensOfUser(trx, userId);
  }
}
