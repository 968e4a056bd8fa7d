import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { baseRoleOf } from '../../repositories/base-member.repository';
import { findUserByEmail, type UserRow } from '../../repositories/user.repository';
import { upsertInvitation } from '../../repositories/invitation.repository';
import { normaliseEmail } from '../accounts/account-rules';
import { applyMembership } from './apply-membership';
import { grantableRole, type MemberActor } from './membership-policy';

/**
 * Invites users (comma-separated e-mails) into the actor's base. An e-mail without an
 * account is 404 (they must sign up first), except with SVC_SIGNUP=invite:
 * there the invitation waits, lets that e-mail sign up, and becomes the
 * membership at its sign-up. Every e-mail is checked before anything is written.
 */
export async function inviteMembers(ports: AuthPorts, actor: MemberActor, input: { email: string; roles: string }): Promise<void> {
  const baseId = actor.value.id;
  const role = grantableRole(actor, input.roles);
  const emails = input.email.split(',').map((e) => e.trim()).filter(Boolean).map(normaliseEmail);
  if (emails.length === 0) throw errors.badRequest('Invalid email');
  const pendingAllowed = ports.config.SVC_SIGNUP === 'invite';
  const invitees = await Promise.all(emails.map(async (email): Promise<{ email: string; user?: UserRow }> => {
    const user = await findUserByEmail(ports.db, email);
    if (!user) {
      if (pendingAllowed) return { email };
      throw errors.notFound('ERR_USER_NOT_FOUND', `User '${email}' not found: they must sign up first`);
    }
    if (await baseRoleOf(ports.db, baseId, user.id)) throw errors.badRequest(`${email} already exists in this base`);
    return { email, user };
  }));
  for (const { email, user } of invitees) {
    if (user) await applyMembership(ports, baseId, user.id, role, actor.principal);
    else await upsertInvitation(ports.db, { email, base_id: baseId, role, invited_by: actor.principal.id });
  }
}
