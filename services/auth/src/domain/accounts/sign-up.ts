import { errors } from '@tabula/http';
import { isUniqueViolation } from '@tabula/db';
import type { AuthPorts } from '../../ports';
import { countUsers, findUserByEmail, insertUser, lockSignups, type UserRow } from '../../repositories/user.repository';
import { hashPassword } from '../../security/password-hasher';
import { newId, newTokenVersion } from '../../security/secret-token';
import { checkPassword, normaliseEmail, rolesForNewUser } from './account-rules';
import { issueSession, type Session } from '../sessions/issue-session';
import { assertNotLimited, countAttempt } from '../sessions/rate-limits';

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

/** Creates an account (the first one is super) and signs it in; sign-ups are limited per client address. */
export async function signUp(ports: AuthPorts, input: SignUpInput): Promise<Session> {
  const email = normaliseEmail(input.email);
  await assertNotLimited(ports, 'signup', email, input.clientIp);
  await countAttempt(ports, 'signup', email, input.clientIp);
  checkPassword(input.password);
  if (await findUserByEmail(ports.db, email)) throw userExists();
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    user = await ports.db.transaction(async (trx) => {
      await lockSignups(trx);
      const roles = rolesForNewUser(await countUsers(trx));
      return insertUser(trx, {
        id: newId('us'), email, password_hash: passwordHash, firstname: input.firstname ?? null,
        lastname: input.lastname ?? null, roles, token_version: newTokenVersion(),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw userExists();
    throw err;
  }
  return issueSession(ports, user);
}
