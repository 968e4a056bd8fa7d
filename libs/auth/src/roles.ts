/** Base roles, weakest first (compat-notes "Auth"). `no-access` is below all. */
export const BASE_ROLES = ['no-access', 'viewer', 'commenter', 'editor', 'creator', 'owner'] as const;
export type BaseRole = (typeof BASE_ROLES)[number];

/** Organisation roles. */
export const ORG_ROLES = ['org-level-viewer', 'org-level-creator', 'super'] as const;

/** What a principal may do in a base; each needs a minimum role. */
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

/** True when a role is a known base role. */
export function isBaseRole(value: string): value is BaseRole {
  return (BASE_ROLES as readonly string[]).includes(value);
}

/** True when `role` is at least `min`. */
export function roleAtLeast(role: BaseRole | undefined, min: BaseRole): boolean {
  if (!role) return false;
  return BASE_ROLES.indexOf(role) >= BASE_ROLES.indexOf(min);
}

/** One-line policy: may a holder of `role` perform `action`? */
export function roleAllows(role: BaseRole | undefined, action: BaseAction): boolean {
  return role !== 'no-access' && roleAtLeast(role, BASE_ACTIONS[action]);
}
