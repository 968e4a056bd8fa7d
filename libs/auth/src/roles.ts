/**
 * Roles and permissions are declared once, beside the endpoint contracts that
 * name them (libs/contracts/src/endpoint/access.ts); re-exported here for the
 * services' policies.
 */
import { BASE_ROLES as ROLES, type BaseRole as Role } from '@tabula/contracts';

export {
  BASE_ROLES, ORG_ROLES, BASE_ACTIONS, ORG_ACTIONS, roleAtLeast, roleAllows, orgRolesAllow,
  type BaseRole, type OrgRole, type BaseAction, type OrgAction,
} from '@tabula/contracts';

/** True when a role is a known base role. */
export function isBaseRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
