import { errors } from '@tabula/http';
import { BASE_ROLES, isBaseRole, roleAtLeast, type BaseRole } from '@tabula/auth';
import { roleIn, type BaseInScope } from '../auth-access';

/** Who changes a membership: a caller the guard allowed `members.write` in the base, with the role they hold there. */
export type MemberActor = BaseInScope;

/** 400 unless `role` is a base role the actor may hand out (never above its own). */
export function grantableRole(actor: MemberActor, role: string): BaseRole {
  if (!isBaseRole(role)) throw errors.badRequest(`roles: must be one of ${BASE_ROLES.join(', ')}`);
  if (!roleAtLeast(roleIn(actor), role)) throw errors.forbidden(`Forbidden - role '${roleIn(actor)}' may not grant '${role}'`);
  return role;
}

/** 403 when the target's current role is above the actor's (a creator cannot demote an owner). */
export function assertMayManage(actor: MemberActor, currentRole: string): void {
  if (isBaseRole(currentRole) && !roleAtLeast(roleIn(actor), currentRole)) {
    throw errors.forbidden(`Forbidden - role '${roleIn(actor)}' may not change a '${currentRole}'`);
  }
}
