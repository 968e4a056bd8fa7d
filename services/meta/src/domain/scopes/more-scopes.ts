import type { AnyEndpoint, ScopeKind } from '@tabula/contracts';
import { scopeOf, type AccessScope, type Authorizer } from '@tabula/http';

/**
 * A second resource a use case touches, checked by the same resolvers and
 * authorizer as the route's guard (so its answers are the guard's: its own
 * 404 for a caller with no role in its base, 403 for a weaker role).
 */
export interface MoreScopes {
  /** The endpoint's own declared permission, on another resource. */
  same<T>(via: ScopeKind, id: string): Promise<AccessScope<T>>;
  /** Another resource the caller need only see: a role in its base, whichever (else its 404, never a 403). */
  visible<T>(via: ScopeKind, id: string): Promise<AccessScope<T>>;
}

/**
 * Seeing a resource at all: the weakest base permission, which every role
 * but `no-access` holds, so the authorizer answers no member with 403.
 */
const SEE = 'base.read';

/** The second-resource checks of a contract route (after its guard ran: `scopeOf(ctx)` holds the caller). */
export function moreScopes(authorizer: Authorizer, endpoint: AnyEndpoint, ctx: { state: Record<string, unknown>; input?: unknown }): MoreScopes {
  const { principal } = scopeOf(ctx);
  const check = <T>(permission: AnyEndpoint['auth']['permission'], via: ScopeKind, id: string) =>
    authorizer.authorize({ ...endpoint, auth: { ...endpoint.auth, permission, scope: { via, id: () => id } } }, principal, ctx.input) as Promise<AccessScope<T>>;
  return {
    same: (via, id) => check(endpoint.auth.permission, via, id),
    visible: (via, id) => check(SEE, via, id),
  };
}
