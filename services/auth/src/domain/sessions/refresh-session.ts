import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { findRefreshToken, revokeRefreshFamily, rotateRefreshToken } from '../../repositories/refresh-token.repository';
import { findUserById } from '../../repositories/user.repository';
import { hashToken } from '../../security/secret-token';
import { signJwtFor, storeRefreshToken, type Session } from './issue-session';

/** Outcome of a refresh: a new session, or why it failed (reuse revokes the family). */
export type RefreshOutcome = { ok: true; session: Session } | { ok: false; reason: 'missing' | 'unknown' | 'expired' | 'reused' };

/**
 * Rotates a refresh token: the presented one is retired and replaced in the same
 * family. Presenting an already-rotated token means it leaked: the whole family
 * is revoked.
 */
export async function refreshSession(ports: AuthPorts, presented: string | undefined): Promise<RefreshOutcome> {
  if (!presented) return { ok: false, reason: 'missing' };
  return ports.db.transaction(async (trx): Promise<RefreshOutcome> => {
    const row = await findRefreshToken(trx, hashToken(presented));
    if (!row) return { ok: false, reason: 'unknown' };
    if (row.revoked_at) {
      if (row.replaced_by) await revokeRefreshFamily(trx, row.family_id);
      return { ok: false, reason: 'reused' };
    }
    if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
    const user = await findUserById(trx, row.user_id);
    if (!user) return { ok: false, reason: 'unknown' };
    const next = await storeRefreshToken(ports, trx, user.id, row.family_id);
    if (!(await rotateRefreshToken(trx, row.hash, next.hash))) {
      throw errors.unauthorized();
    }
    return { ok: true, session: { token: signJwtFor(ports, user), refreshToken: next.token, refreshMaxAgeSeconds: next.maxAge } };
  });
}

/** The error for a failed refresh. */
export function refreshFailed(): Error {
  return errors.unauthorized('Authentication required - Invalid refresh token');
}
