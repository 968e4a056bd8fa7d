/**
 * Who may call an endpoint, declared on its contract: the kinds of caller it
 * admits, the permission it needs and the resource (scope) that permission is
 * checked on. Routes install their guard from this declaration, the gateway
 * routes from it and the access-matrix test derives every expected answer
 * from it: it is the one place a permission is written.
 */

/** Base roles, weakest first (compat-notes "Auth"). `no-access` is below all. */
export const BASE_ROLES = ['no-access', 'viewer', 'commenter', 'editor', 'creator', 'owner'] as const;
export type BaseRole = (typeof BASE_ROLES)[number];

/** Organisation roles, weakest first. */
export const ORG_ROLES = ['org-level-viewer', 'org-level-creator', 'super'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Permissions inside one base; each needs a minimum base role. */
export const BASE_ACTIONS = {
  'base.read': 'viewer',
  'data.read': 'viewer',
  'comment.read': 'viewer',
  'comment.write': 'commenter',
  'data.write': 'editor',
  'comment.resolve': 'creator',
  'schema.write': 'creator',
  'hook.write': 'creator',
  'members.read': 'viewer',
  'members.write': 'creator',
  'token.write': 'creator',
  'base.update': 'creator',
  'base.delete': 'owner',
} as const satisfies Record<string, BaseRole>;
export type BaseAction = keyof typeof BASE_ACTIONS;

/** Permissions of the workspace (no base); each needs a minimum org role. */
export const ORG_ACTIONS = {
  'integration.manage': 'org-level-creator',
  'base.create': 'org-level-creator',
} as const satisfies Record<string, OrgRole>;
export type OrgAction = keyof typeof ORG_ACTIONS;

/**
 * `self`: the resource belongs to one user (an org API token), who alone may
 * act on it; everyone else gets the answer of a missing resource.
 */
export type Permission = BaseAction | OrgAction | 'self';

/**
 * Kinds of caller: no credentials, a user's session (JWT), a user's org-wide
 * API token, an API token scoped to one base, another service (`/internal`).
 */
export const CALLER_KINDS = ['anonymous', 'session', 'orgToken', 'baseToken', 'service'] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

/**
 * How the resource a permission is checked on is found: `via` names a kind of
 * resource whose owning service resolves it (to its base, owner, and the
 * answer of a missing one); `id` picks its id (or title) from the validated
 * input. `via: 'tableRef'` takes `{ baseName, tableName }` of a data route.
 */
export interface ScopeRule<I = any> {
  via: ScopeKind;
  id: (input: I) => unknown;
}

/** Kinds of resource a service resolves for guards. */
export const SCOPE_KINDS = [
  'base', 'source', 'table', 'tableRef', 'column', 'view', 'viewColumn', 'filter', 'sort', 'index',
  'hook', 'comment', 'integration', 'orgToken', 'attachment',
] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

/** The access declaration of one endpoint. */
export interface EndpointAuth<I = any> {
  /** The kinds of caller admitted; any other is refused before the input is read. */
  callers: readonly CallerKind[];
  /**
   * The permission needed (none: any admitted caller; the use case scopes what
   * it answers), or several, all needed, checked in order (a base duplicate
   * needs `base.update` on the base and `base.create` in the workspace).
   */
  permission?: Permission | readonly Permission[];
  /** Where the permission is checked; required for base permissions and `self`. */
  scope?: ScopeRule<I>;
  /**
   * A single-use `?ticket=` may stand in for the credentials (browsers'
   * EventSource and WebSocket send no headers): the gateway passes a request
   * carrying one without credentials, and the owning service redeems it (its
   * principal is the caller). Only for `USERS` endpoints with a transport.
   */
  ticket?: boolean;
}

/** No credentials needed (sign-in, health, signed download links). */
export const PUBLIC = ['anonymous', 'session', 'orgToken', 'baseToken'] as const satisfies readonly CallerKind[];
/** Any signed-in user: session, org token, base token (base-scoped tokens reach only their base). */
export const USERS = ['session', 'orgToken', 'baseToken'] as const satisfies readonly CallerKind[];
/** A user acting for the whole account or workspace: base-scoped tokens are refused. */
export const ACCOUNT = ['session', 'orgToken'] as const satisfies readonly CallerKind[];
/** A user's own session only (password, sign-out): every API token is refused. */
export const SESSION = ['session'] as const satisfies readonly CallerKind[];
/** Other services only (`/internal/...`). */
export const SERVICES = ['service'] as const satisfies readonly CallerKind[];

/** True when `role` is at least `min`. */
export function roleAtLeast(role: BaseRole | undefined, min: BaseRole): boolean {
  if (!role) return false;
  return BASE_ROLES.indexOf(role) >= BASE_ROLES.indexOf(min);
}

/** One-line policy: may a holder of `role` perform `action` in a base? */
export function roleAllows(role: BaseRole | undefined, action: BaseAction): boolean {
  return role !== 'no-access' && roleAtLeast(role, BASE_ACTIONS[action]);
}

/** May a holder of these org roles perform `action`? (`super` may do everything.) */
export function orgRolesAllow(roles: readonly string[], action: OrgAction): boolean {
  const min = ORG_ROLES.indexOf(ORG_ACTIONS[action]);
  return roles.some((r) => ORG_ROLES.indexOf(r as OrgRole) >= min);
}

/** The permissions an endpoint declares, in order (none, one or several). */
export function permissionsOf(auth: EndpointAuth): readonly Permission[] {
  if (auth.permission === undefined) return [];
  return typeof auth.permission === 'string' ? [auth.permission] : auth.permission;
}

/** True for permissions checked on a base. */
export function isBaseAction(permission: Permission | undefined): permission is BaseAction {
  return permission !== undefined && permission in BASE_ACTIONS;
}

/** True for permissions of the workspace. */
export function isOrgAction(permission: Permission | undefined): permission is OrgAction {
  return permission !== undefined && permission in ORG_ACTIONS;
}

/** The part of an endpoint's declaration the gateway reads. */
export type EndpointAccess = 'public' | 'user' | 'internal';

/** How the gateway treats an endpoint: internal (never routed), public (no credentials needed), or user. */
export function accessOf(auth: EndpointAuth): EndpointAccess {
  if (auth.callers.includes('service')) return 'internal';
  return auth.callers.includes('anonymous') ? 'public' : 'user';
}

/** Checks a declaration is coherent; throws naming the endpoint. */
export function checkAuth(id: string, path: string, auth: EndpointAuth): void {
  if (auth.callers.length === 0) throw new Error(`endpoint ${id}: no caller may call it`);
  if (auth.callers.includes('service') && auth.callers.length > 1) throw new Error(`endpoint ${id}: internal endpoints admit services only`);
  const internal = auth.callers.includes('service');
  if (internal !== path.startsWith('/internal/')) throw new Error(`endpoint ${id}: internal endpoints, and only they, live under /internal/`);
  for (const permission of permissionsOf(auth)) {
    if ((isBaseAction(permission) || permission === 'self') && !auth.scope) {
      throw new Error(`endpoint ${id}: permission '${permission}' needs a scope (which resource it is checked on)`);
    }
  }
  if (permissionsOf(auth).length > 0 && auth.callers.includes('anonymous')) throw new Error(`endpoint ${id}: a public endpoint cannot need a permission`);
  if (auth.ticket && auth.callers.includes('anonymous')) throw new Error(`endpoint ${id}: a public endpoint needs no ticket`);
  // A scope without a permission would load a resource for anyone: say what is needed on it.
  if (auth.scope && permissionsOf(auth).length === 0) throw new Error(`endpoint ${id}: a scope needs a permission (at least base.read)`);
}
