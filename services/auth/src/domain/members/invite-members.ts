import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { baseRoleOf } from '../../repositories/base-member.repository';
import { findUserByEmail } from '../../repositories/user.repository';
import { normaliseEmail } from '../accounts/account-rules';
import { applyMembership } from './apply-membership';
import { grantableRole, type MemberActor } from './membership-policy';

/** Invites existing users (comma-separated e-mails) into the actor's base. */
export async function inviteMembers(ports: AuthPorts, actor: MemberActor, input: { email: string; roles: string }): Promise<void> {
  const baseId = actor.value.id;
  const role = grantableRole(actor, input.roles);
  const emails = input.email.split(',').map((e) => e.trim()).filter(Boolean).map(normaliseEmail);
  if (emails.length === 0) throw errors.badRequest('Invalid email');
  const users = await Promise.all(emails.map(async (email) => {
    const user = await findUserByEmail(ports.db, email);
    if (!user) throw errors.notFound('ERR_USER_NOT_FOUND', `User '${email}' not found: they must sign up first`);
    if (await baseRoleOf(ports.db, baseId, user.id)) throw errors.badRequest(`${email} already exists in this base`);
    return user;
  }));
  for (const user of users) await applyMembership(ports, baseId, user.id, role, actor.principal);
}
