import type { Knex } from 'knex';
import { ChangeAction } from '@tabula/contracts';
import { enqueueMembershipChanged } from '../../events/auth-events.producer';
import { upsertBaseMember } from '../../repositories/base-member.repository';
import { deleteInvitationsOf, invitationsOf } from '../../repositories/invitation.repository';

/**
 * In the sign-up's transaction: the new user becomes a member of every base
 * its e-mail was invited into, with the invited role (announced like any
 * membership, through the outbox), and the invitations are gone. Returns the
 * bases, whose role caches the caller drops after commit.
 */
export async function acceptInvitations(trx: Knex.Transaction, email: string, userId: string): Promise<string[]> {
  const invitations = await invitationsOf(trx, email);
  for (const invitation of invitations) {
    await upsertBaseMember(trx, invitation.base_id, userId, invitation.role);
    await enqueueMembershipChanged(trx, {
      action: ChangeAction.CREATED, baseId: invitation.base_id, userId, role: invitation.role,
      actor: invitation.invited_by ? { id: invitation.invited_by } : undefined,
    });
  }
  if (invitations.length) await deleteInvitationsOf(trx, email);
  return invitations.map((i) => i.base_id);
}
