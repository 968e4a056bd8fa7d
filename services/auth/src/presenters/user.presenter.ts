import type { UserSummary } from '@tabula/contracts';
import type { UserRow } from '../repositories/user.repository';

/** The spec's User resource (`GET /me`): roles as the comma string. */
export function presentMe(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    email_verified: Boolean(user.email_verified),
    firstname: user.firstname ?? null,
    lastname: user.lastname ?? null,
    roles: user.roles,
  };
}

/** The internal {@link UserSummary}. */
export function presentUserSummary(user: UserRow): UserSummary {
  return { id: user.id, email: user.email, firstname: user.firstname, lastname: user.lastname };
}
