import { withOutbox } from '@tabula/events';
import { InvalidationReason } from '@tabula/contracts';
import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { enqueuePrincipalInvalidated } from '../../events/auth-events.producer';
import { findUserById } from '../../repositories/user.repository';
import { hashPassword, verifyPassword } from '../../security/password-hasher';
import { checkPassword } from './account-rules';
import { revokeSessions } from '../sessions/revoke-sessions';

/** Changes a password after checking the current one; every earlier session dies. */
export async function changePassword(ports: AuthPorts, userId: string, input: { currentPassword: string; newPassword: string }): Promise<void> {
  checkPassword(input.newPassword, 'newPassword');
  const user = await findUserById(ports.db, userId);
  if (!user) throw errors.unauthorized();
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) throw errors.badRequest('Current password is wrong');
  const passwordHash = await hashPassword(input.newPassword);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await revokeSessions(trx, userId, passwordHash);
    await enqueuePrincipalInvalidated(trx, userId, InvalidationReason.PASSWORD_CHANGED);
  });
}
