import { InvalidationReason } from '@tabula/contracts';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { inAuthTransaction } from '../../events/auth-transaction';
import { revokeSessions } from './revoke-sessions';

/** Sign-out: every JWT and refresh token of the user dies (compat-notes "Auth"). */
export async function signOut(ports: AuthPorts, userId: string): Promise<void> {
  await inAuthTransaction(ports, async (trx) => {
    await revokeSessions(trx, userId);
    await enqueuePrincipalInvalidated(trx, userId, InvalidationReason.SIGNED_OUT);
  });
}
