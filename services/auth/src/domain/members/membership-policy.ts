import { errors } from '@tabula/http';
import { BASE_ROLES, isBaseRole, roleAtLeast, type BaseRole, type Principal } from '@tabula/auth';

/** Who changes a membership, with the role they hold in the base. */
export interface MemberActor {
  principal: Principal;
  role: BaseRole;
}

/** 400 unless `role` is a base role the actor may hand out (never above its own). */
export function grantableRole(actor: MemberActor, role: string): BaseRole {
  if (!isBaseRole(role)) throw errors.badRequest(`roles: must be one of ${BASE_ROLES.join(', ')}`);
  if (!roleAtLeast(actor.role, role)) throw errors.forbidden(`Forbidden - role '${actor.role}' may not grant '${role}'`);
  return role;
}

/** 403 when the target's current role is above the actor's (a creator cannot demote an owner). */
export function assertMayManage(actor: MemberActor, currentRole: string): void {
  if (isBaseRole(currentRole) && !roleAtLeast(actor.role, currentRole)) {
    throw errors.forbidden(`Forbidden - role '${actor.role}' may not change a '${currentRole}'`);
  }
}
