import { withOutbox } from '@tabula/events';
import { InvalidationReason } from '@tabula/contracts';
import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { consumePasswordReset } from '../../repositories/password-reset.repository';
import { hashPassword } from '../../security/password-hasher';
import { hashToken } from '../../security/secret-token';
import { checkPassword } from './account-rules';
import { revokeSessions } from '../sessions/revoke-sessions';

/** Sets a new password with a reset token (once, within the hour); every earlier session dies. */
export async function resetPassword(ports: AuthPorts, input: { token: string; password: string }): Promise<void> {
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const id = await consumePasswordReset(trx, hashToken(input.token));
    if (!id) throw errors.badRequest('Invalid reset url');
    await revokeSessions(trx, id, passwordHash);
    await enqueuePrincipalInvalidated(trx, id, InvalidationReason.PASSWORD_CHANGED);
  });
}
