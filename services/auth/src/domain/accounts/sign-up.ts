import { errors } from '@tabula/http';
import { isUniqueViolation } from '@tabula/db';
import { withOutbox } from '@tabula/events';
import type { AuthPorts } from '../../ports';
import { countUsers, findUserByEmail, insertUser, lockSignups, type UserRow } from '../../repositories/user.repository';
import { hashPassword } from '../../security/password-hasher';
import { newId, newTokenVersion } from '../../security/secret-token';
import { checkPassword, normaliseEmail, rolesForNewUser } from './account-rules';
import { issueSession, type Session } from '../sessions/issue-session';
import { assertNotLimited, countAttempt } from '../sessions/rate-limits';
import { isInvited } from '../../repositories/invitation.repository';
import { acceptInvitations } from '../members/accept-invitations';
import { assertMaySignUp } from './signup-policy';

/** Sign-up input; anything else the client sent (roles, super…) was already stripped. */
export interface SignUpInput {
  email: string;
  password: string;
  firstname?: string;
  lastname?: string;
  /** The client address the gateway saw (sign-ups are rate limited per address). */
  clientIp?: string;
}

const userExists = () => errors.badRequest('User already exist');

/** 403 unless SVC_SIGNUP lets this e-mail in now (read again under the sign-up lock before the insert). */
async function checkSignupMode(ports: AuthPorts, db: Parameters<typeof countUsers>[0], email: string): Promise<number> {
  const mode = ports.config.SVC_SIGNUP;
  const users = await countUsers(db);
  assertMaySignUp(mode, users, mode === 'invite' && users > 0 && await isInvited(db, email));
  return users;
}

/**
 * Creates an account (the first one is super) and signs it in; sign-ups are
 * limited per client address and by SVC_SIGNUP. Pending invitations of the
 * e-mail become memberships in the same transaction.
 */
export async function signUp(ports: AuthPorts, input: SignUpInput): Promise<Session> {
  const email = normaliseEmail(input.email);
  await assertNotLimited(ports, 'signup', email, input.clientIp);
  await countAttempt(ports, 'signup', email, input.clientIp);
  // before the password and existence checks: a closed sign-up tells nothing about accounts
  if (ports.config.SVC_SIGNUP !== 'open') await checkSignupMode(ports, ports.db, email);
  checkPassword(input.password);
  if (await findUserByEmail(ports.db, email)) throw userExists();
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  let bases: string[];
  try {
    [user, bases] = await withOutbox(ports.db, ports.relay, async (trx) => {
      await lockSignups(trx);
      const roles = rolesForNewUser(await checkSignupMode(ports, trx, email));
      const row = await insertUser(trx, {
        id: newId('us'), email, password_hash: passwordHash, firstname: input.firstname ?? null,
        lastname: input.lastname ?? null, roles, token_version: newTokenVersion(),
      });
      return [row, await acceptInvitations(trx, email, row.id)] as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw userExists();
    throw err;
  }
  for (const baseId of bases) ports.baseAccess.invalidate(baseId, user.id);
  return issueSession(ports, user);
}
