import { InvalidationReason } from '@tabula/contracts';
import type { AuthPorts } from '../ports';
import { publishPrincipalInvalidated } from '../events/auth-events.producer';
import { revokeSessions } from './revoke-sessions';

/** Sign-out: every JWT and refresh token of the user dies (compat-notes "Auth"). */
export async function signOut(ports: AuthPorts, userId: string): Promise<void> {
  await ports.db.transaction((trx) => revokeSessions(trx, userId));
  await publishPrincipalInvalidated(ports, userId, InvalidationReason.SIGNED_OUT);
}
