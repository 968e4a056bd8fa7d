import { withOutbox } from '@tabula/events';
import { InvalidationReason } from '@tabula/contracts';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { revokeSessions } from './revoke-sessions';

/** Sign-out: every JWT and refresh token of the user dies (compat-notes "Auth"). */
export async function signOut(ports: AuthPorts, userId: string): Promise<void> {
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await revokeSessions(trx, userId);
    await enqueuePrincipalInvalidated(trx, userId, InvalidationReason.SIGNED_OUT);
  });
}
