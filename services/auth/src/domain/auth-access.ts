import { errors, type AccessScope, type AppError } from '@tabula/http';
import { isSuper, type BaseRole, type ScopeResolvers } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { findApiTokenById, type ApiTokenRow } from '../repositories/api-token.repository';

/** A base named by the request; auth owns memberships, so the base is its id (roles are looked up by the guard). */
export interface BaseRef {
  id: string;
}

/** A base the guard authorized, with the caller's role there. */
export type BaseInScope = AccessScope<BaseRef>;
/** One of the caller's own org-wide API tokens (the guard admitted its owner only). */
export type OrgTokenInScope = AccessScope<ApiTokenRow>;

/** 404 of a token id (also another user's org token: ids never reveal what exists). */
export function tokenNotFound(id: string): AppError {
  return errors.notFound('ERR_TOKEN_NOT_FOUND', `Token '${id}' not found`);
}

/** The caller's role in an authorized base (the guard checked it grants the endpoint's permission). */
export function roleIn(base: BaseInScope): BaseRole {
  return base.role as BaseRole;
}

/**
 * What the auth contracts are scoped by. `base`: the path's base id as is
 * (auth answers the roles itself; a caller without one gets the 403 it always
 * got, for a base that exists or not alike). `orgToken`: an org-wide token,
 * owned by its maker; a super admin manages every user's org tokens, so for
 * super the token answers as its own.
 */
export function authScopes(ports: AuthPorts): ScopeResolvers {
  return {
    base: {
      missing: () => errors.forbidden(),
      resolve: async (_principal, id) => ({ baseId: String(id), value: { id: String(id) } }),
    },
    orgToken: {
      missing: (id) => tokenNotFound(String(id)),
      resolve: async (principal, id) => {
        const row = await findApiTokenById(ports.db, String(id));
        if (!row || row.base_id !== null) throw tokenNotFound(String(id));
        return { ownerId: isSuper(principal) ? principal.id : row.user_id, value: row };
      },
    },
  };
}
