import { decodeEvent, InvalidationReason, MembershipChangedSchema, PrincipalInvalidatedSchema, topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { RealtimePorts } from '../ports';

/**
 * Ends streams whose access ended (event: revoked): sign-out and password
 * change end the user's session streams, a deleted user all of them, a
 * revoked token that token's, a removed or lowered membership the user's
 * streams in that base. Every replica holds its own streams: per process.
 */
export const accessConsumer = defineConsumer<Pick<RealtimePorts, 'bus' | 'hub'>>({
  name: 'realtime.access',
  topics: [topics.auth],
  delivery: { kind: 'per-process', prefix: 'realtime' },
  async handle({ hub }, message) {
    if (message.type === 'auth.membership.changed') {
      const event = decodeEvent(MembershipChangedSchema, message.payload);
      await hub.membershipChanged(event.baseId, event.userId);
      return;
    }
    if (!message.type.startsWith('auth.user.') && message.type !== 'auth.token.revoked') return;
    const event = decodeEvent(PrincipalInvalidatedSchema, message.payload);
    hub.principalInvalidated(event.userId, event.tokenId, event.reason === InvalidationReason.USER_DELETED);
  },
});
