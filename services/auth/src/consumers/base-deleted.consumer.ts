import { BaseChangedSchema, decodeEvent, topics } from '@tabula/contracts';
import { defineConsumer, handleOnce } from '@tabula/events';
import type { AuthPorts } from '../ports';
import { deleteApiTokensOfBase } from '../repositories/api-token.repository';
import { removeBaseMembers } from '../repositories/base-member.repository';
import { removeInvitationsOfBase } from '../repositories/invitation.repository';
import { AUTH_SCHEMA } from '../repositories/schema';

const CONSUMER = 'auth.base-deleted';

/**
 * Forgets a deleted base's memberships, invitations and base-scoped tokens (once per event),
 * in one group shared by auth's replicas.
 */
export const baseDeletedConsumer = defineConsumer<AuthPorts>({
  name: CONSUMER,
  topics: [topics.meta],
  delivery: { kind: 'shared', group: 'auth-base-deleted' },
  async handle(ports, message) {
    if (message.type !== 'meta.base.deleted') return;
    const { baseId } = decodeEvent(BaseChangedSchema, message.payload);
    if (!baseId) return;
    await handleOnce(ports.db, AUTH_SCHEMA, CONSUMER, message.id, async (trx) => {
      await removeBaseMembers(trx, baseId);
      await removeInvitationsOfBase(trx, baseId);
      await deleteApiTokensOfBase(trx, baseId);
    });
    ports.baseAccess.invalidate(baseId);
  },
});
