import { randomUUID } from 'node:crypto';
import type { AuthPorts } from '../../ports';
import type { UserRow } from '../../repositories/user.repository';
import { insertRefreshToken } from '../../repositories/refresh-token.repository';
import type { Db } from '../../repositories/schema';
import { hashToken, newRefreshToken } from '../../security/secret-token';
import { signUserJwt } from '../../security/user-jwt';

/** A signed-in session: the JWT for the body and the refresh token for the cookie. */
export interface Session {
  token: string;
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

/** Signs a JWT for the user's current token_version. */
export function signJwtFor(ports: AuthPorts, user: Pick<UserRow, 'id' | 'email' | 'roles' | 'token_version'>): string {
  return signUserJwt(
    { id: user.id, email: user.email, roles: user.roles, token_version: user.token_version },
    ports.jwtSecret, ports.platform.SVC_JWT_EXPIRES_IN,
  );
}

/** Stores a new refresh token (hashed) in a family — a new family at sign-in, the same one on rotation. */
export async function storeRefreshToken(ports: AuthPorts, db: Db, userId: string, familyId: string = randomUUID()): Promise<{ token: string; hash: string; maxAge: number }> {
  const token = newRefreshToken();
  const hash = hashToken(token);
  const maxAge = ports.config.SVC_REFRESH_TOKEN_DAYS * 86_400;
  await insertRefreshToken(db, { hash, user_id: userId, family_id: familyId, expires_at: new Date(Date.now() + maxAge * 1000) });
  return { token, hash, maxAge };
}

/** JWT plus a fresh refresh-token family (sign-up, sign-in). */
export async function issueSession(ports: AuthPorts, user: UserRow): Promise<Session> {
  const refresh = await storeRefreshToken(ports, ports.db, user.id);
  return { token: signJwtFor(ports, user), refreshToken: refresh.token, refreshMaxAgeSeconds: refresh.maxAge };
}
