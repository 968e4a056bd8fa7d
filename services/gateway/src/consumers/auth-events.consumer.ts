import { decodeEvent, PrincipalInvalidatedSchema, topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { GatewayPorts } from '../ports';

/**
 * Drops cached principals on `tabula.auth` events (sign-out, password change,
 * user deleted, token revoked). Every gateway replica keeps its own cache, so
 * every process gets every event.
 */
export const authEventsConsumer = defineConsumer<Pick<GatewayPorts, 'bus' | 'authenticator'>>({
  name: 'gateway.auth-events',
  topics: [topics.auth],
  delivery: { kind: 'per-process', prefix: 'gateway' },
  async handle({ authenticator }, message) {
    if (!message.type.startsWith('auth.user.') && message.type !== 'auth.token.revoked') return;
    const event = decodeEvent(PrincipalInvalidatedSchema, message.payload);
    authenticator.invalidate(event.userId, event.tokenId);
  },
});
