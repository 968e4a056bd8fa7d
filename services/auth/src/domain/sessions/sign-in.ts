import { errors } from '@tabula/http';
import type { AuthPorts } from '../../ports';
import { findUserByEmail } from '../../repositories/user.repository';
import { verifyPassword } from '../../security/password-hasher';
import { normaliseEmail } from '../accounts/account-rules';
import { issueSession, type Session } from './issue-session';
import { assertMaySignIn, recordSignInFailure, recordSignInSuccess } from './signin-throttle';

/** Sign-in input plus the client address the gateway saw. */
export interface SignInInput {
  email: string;
  password: string;
  clientIp?: string;
}

/**
 * Checks the password (an unknown e-mail costs the same argon2 verification, so
 * both failures take the same time) and opens a session. Failures slow down
 * further tries without locking the owner out (signin-throttle.ts, README
 * "Sign-in throttling").
 */
export async function signIn(ports: AuthPorts, input: SignInInput): Promise<Session> {
  const email = normaliseEmail(input.email);
  await assertMaySignIn(ports, email, input.clientIp);
  const user = await findUserByEmail(ports.db, email);
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) {
    await recordSignInFailure(ports, email, input.clientIp);
    throw errors.badRequest('Invalid credentials');
  }
  await recordSignInSuccess(ports, email, input.clientIp);
  return issueSession(ports, user);
}
