import {
  isBaseAction, isOrgAction, orgRolesAllow, ORG_ACTIONS, permissionsOf, type AnyEndpoint, type ScopeKind,
} from '@tabula/contracts';
import { errors, type AccessScope, type Authorizer } from '@tabula/http';
import type { Principal } from './principal';
import type { BaseAccess } from './base-access';

/** What a scope resolver found: the resource, the base it lives in and the user it belongs to. */
export interface Resolved<T = unknown> {
  baseId?: string;
  ownerId?: string;
  value: T;
}

/**
 * Finds one kind of resource for guards, in the service that owns it (meta
 * resolves tables, comments resolves comments…). `resolve` throws `missing`
 * when the resource does not exist, or exists where the caller may never see
 * it (another user's private integration): the two answers are one.
 */
export interface ScopeResolver<T = unknown> {
  missing(id: unknown): Error;
  resolve(principal: Principal, id: unknown, input: unknown): Promise<Resolved<T>>;
}

/** The resolvers a service hands its routers, one per kind of resource its endpoints are scoped by. */
export type ScopeResolvers = Partial<Record<ScopeKind, ScopeResolver<any>>>;

function orgRefusal(principal: Principal, permission: keyof typeof ORG_ACTIONS): Error {
  return errors.forbidden(`Forbidden - role '${principal.roles.join(',') || 'none'}' may not perform '${permission}' (${ORG_ACTIONS[permission]} or above)`);
}

/**
 * The authorizer of a service: checks each endpoint's declared permission on
 * its declared scope. A caller with no role in the scope's base (another
 * tenant, another base's token) gets the answer of a missing resource; a
 * member whose role lacks the permission gets 403; an org permission refused
 * on a resource is a missing resource too, without one a 403; `self` admits
 * the resource's owner alone.
 */
export function contractAuthorizer(baseAccess: BaseAccess, resolvers: ScopeResolvers): Authorizer {
  const resolverOf = (endpoint: AnyEndpoint): ScopeResolver => {
    const kind = endpoint.auth.scope?.via as ScopeKind;
    const resolver = resolvers[kind];
    if (!resolver) throw new Error(`endpoint ${endpoint.id}: this service has no resolver for scope '${kind}'`);
    return resolver;
  };
  return {
    check(endpoint) {
      if (endpoint.auth.scope) resolverOf(endpoint);
    },
    async refuse(endpoint, principal, input) {
      // A base-scoped token refused on its own base knows the base exists: 403; on anything else: missing.
      const resolver = resolverOf(endpoint);
      const id = endpoint.auth.scope!.id(input as never);
      const found = principal.baseScope ? await resolver.resolve(principal, id, input).catch(() => undefined) : undefined;
      if (found?.baseId && found.baseId === principal.baseScope) return errors.forbidden('Forbidden - a base-scoped API token cannot act on the workspace');
      return resolver.missing(id);
    },
    async authorize(endpoint, principal, input): Promise<AccessScope> {
      const { scope } = endpoint.auth;
      const permissions = permissionsOf(endpoint.auth);
      if (!scope) {
        for (const permission of permissions) {
          if (isOrgAction(permission) && !orgRolesAllow(principal.roles, permission)) throw orgRefusal(principal, permission);
        }
        return { principal, value: undefined };
      }
      const resolver = resolverOf(endpoint);
      const id = scope.id(input as never);
      const missing = () => resolver.missing(id);
      const found = await resolver.resolve(principal, id, input);
      let role: string | undefined;
      for (const permission of permissions) {
        if (isBaseAction(permission)) {
          if (!found.baseId) throw missing();
          role = await baseAccess.authorizeVisible(principal, found.baseId, permission, missing);
        } else if (isOrgAction(permission) && !orgRolesAllow(principal.roles, permission)) {
          // Who already holds a role on the resource knows it exists: 403; anyone else: missing.
          throw role ? orgRefusal(principal, permission) : missing();
        } else if (permission === 'self' && (!found.ownerId || found.ownerId !== principal.id)) {
          throw missing();
        }
      }
      return { principal, baseId: found.baseId, role, value: found.value };
    },
  };
}
