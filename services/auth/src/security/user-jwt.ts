import jwt from 'jsonwebtoken';
import { hmacKey } from '@tabula/auth';

/** The claims of a user JWT (compat-notes "Auth"). */
export interface UserClaims {
  email: string;
  id: string;
  roles: string;
  token_version: string;
}

/** Signs a user JWT: HS256 only, lifetime from SVC_JWT_EXPIRES_IN. */
export function signUserJwt(claims: UserClaims, secret: string, expiresIn: string): string {
  const { email, id, roles, token_version } = claims;
  return jwt.sign({ email, id, roles, token_version }, hmacKey(secret), {
    algorithm: 'HS256', expiresIn: expiresIn as jwt.SignOptions['expiresIn'],
  });
}

/**
 * Verifies signature (HS256 pinned: `none` and other algorithms are refused) and
 * expiry; undefined when anything is wrong.
 */
export function verifyUserJwt(token: string, secret: string): UserClaims | undefined {
  try {
    const payload = jwt.verify(token, hmacKey(secret), { algorithms: ['HS256'] });
    if (typeof payload !== 'object' || payload === null) return undefined;
    const { email, id, roles, token_version } = payload as Record<string, unknown>;
    if (typeof id !== 'string' || typeof token_version !== 'string') return undefined;
    return { email: String(email ?? ''), id, roles: String(roles ?? ''), token_version };
  } catch {
    return undefined;
  }
}
