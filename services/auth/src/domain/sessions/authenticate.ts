import type { Principal } from '@tabula/auth';
import type { AuthenticateRequest } from '@tabula/contracts';
import type { AuthPorts } from '../../ports';
import { findApiTokenByHash } from '../../repositories/api-token.repository';
import { findUserById } from '../../repositories/user.repository';
import { hashToken } from '../../security/secret-token';
import { verifyUserJwt } from '../../security/user-jwt';
import { roleList } from '../accounts/account-rules';

/**
 * Resolves a credential to a principal, or undefined (401). A JWT must verify
 * (HS256, our secret, not expired), its user must exist and its token_version
 * must be current; an API token must match a stored hash. Roles always come from
 * the database, never from the token.
 */
export async function authenticate(ports: AuthPorts, request: AuthenticateRequest): Promise<Principal | undefined> {
  if (request.kind === 'jwt') {
    const claims = verifyUserJwt(request.token, ports.jwtSecret);
    if (!claims) return undefined;
    const user = await findUserById(ports.db, claims.id);
    if (!user || user.token_version !== claims.token_version) return undefined;
    return { kind: 'user', id: user.id, email: user.email, roles: roleList(user.roles), via: 'jwt' };
  }
  const token = await findApiTokenByHash(ports.db, hashToken(request.token));
  if (!token) return undefined;
  const user = await findUserById(ports.db, token.user_id);
  if (!user) return undefined;
  const principal: Principal = { kind: 'user', id: user.id, email: user.email, roles: roleList(user.roles), via: 'api-token', tokenId: token.id };
  if (token.base_id) principal.baseScope = token.base_id;
  return principal;
}
