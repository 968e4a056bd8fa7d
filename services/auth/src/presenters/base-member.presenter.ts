import type { BaseMemberRow } from '../repositories/base-member.repository';

/** A base member as NocoDB lists it: user fields plus the base role in `roles`. */
export function presentBaseMember(row: BaseMemberRow) {
  return {
    id: row.user_id,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    roles: row.role,
    main_roles: row.main_roles,
    base_id: row.base_id,
    created_at: row.created_at.toISOString(),
  };
}
