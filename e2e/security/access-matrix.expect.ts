import {
  isBaseAction, isOrgAction, orgRolesAllow, permissionsOf, roleAllows, type AnyEndpoint, type CallerKind,
} from '@tabula/contracts';
import { ROLE_IN_A, type Caller, type Outcome } from './access-matrix.table';

/** The kind of principal each matrix caller is. */
export const KIND_OF: Record<Caller, CallerKind> = {
  owner: 'session', creator: 'session', editor: 'session', commenter: 'session', viewer: 'session', 'no-access': 'session',
  'tenant B': 'session', "B's base token": 'baseToken', 'org token': 'orgToken', anonymous: 'anonymous',
};

/** Org roles: the owner (and its org token) and tenant B create bases; base members are org-level viewers. */
export const ORG_ROLES_OF: Record<Caller, string[]> = {
  owner: ['org-level-creator'], 'org token': ['org-level-creator'], 'tenant B': ['org-level-creator'], "B's base token": ['org-level-creator'],
  creator: ['org-level-viewer'], editor: ['org-level-viewer'], commenter: ['org-level-viewer'], viewer: ['org-level-viewer'],
  'no-access': ['org-level-viewer'], anonymous: [],
};

/** Who made the fixture's `self` resources (the owner's org token): the owner and that token. */
const OWNS_SELF = new Set<Caller>(['owner', 'org token']);

/**
 * The expected answer of a call, read from the contract's `auth` declaration
 * alone: a caller kind it does not admit is refused (no credentials 401; an
 * API token on a session-only endpoint 401; else the answer of a missing
 * resource when the endpoint names one, 403 otherwise); a public endpoint
 * admits everyone; a base permission is the caller's role in A's base against
 * the policy (no role: hidden); an org permission the caller's org roles
 * (refused: hidden when a resource is named and no base role was shown,
 * else 403); `self` the resource's maker. Several permissions: all, in order.
 */
export function expectedOutcome(endpoint: AnyEndpoint, caller: Caller): Outcome {
  const { callers, scope } = endpoint.auth;
  const kind = KIND_OF[caller];
  if (!callers.includes(kind)) {
    if (kind === 'anonymous') return 'unauthenticated';
    if (callers.length === 1 && callers[0] === 'session') return 'unauthenticated';
    return scope ? 'hidden' : 'forbidden';
  }
  if (callers.includes('anonymous')) return 'admitted';
  let member = false;
  for (const permission of permissionsOf(endpoint.auth)) {
    if (isBaseAction(permission)) {
      const role = ROLE_IN_A[caller];
      if (!role || role === 'no-access') return 'hidden';
      if (!roleAllows(role, permission)) return 'forbidden';
      member = true;
    } else if (isOrgAction(permission) && !orgRolesAllow(ORG_ROLES_OF[caller], permission)) {
      return scope && !member ? 'hidden' : 'forbidden';
    } else if (permission === 'self' && !OWNS_SELF.has(caller)) {
      return 'hidden';
    }
  }
  return 'allowed';
}
