import type { AuthPorts } from '../../ports';
import { insertPasswordReset } from '../../repositories/password-reset.repository';
import { findUserByEmail } from '../../repositories/user.repository';
import { hashToken, newResetToken } from '../../security/secret-token';
import { normaliseEmail } from './account-rules';
import { assertNotLimited, countAttempt } from '../sessions/rate-limits';

const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Sends a single-use reset link valid one hour. Answers the same, in the same
 * time, whether or not the e-mail is known: the lookup and the mail are queued
 * (BackgroundTasks) after the rate-limit checks every request pays.
 */
export async function forgotPassword(ports: AuthPorts, input: { email: string; clientIp?: string }): Promise<void> {
  const email = normaliseEmail(input.email);
  await assertNotLimited(ports, 'forgot', email, input.clientIp);
  await countAttempt(ports, 'forgot', email, input.clientIp);
  ports.tasks.run('reset-mail', () => sendResetMail(ports, email));
}

/**
 * The link opens the web app's reset page (services/web), which posts the new
 * password to `POST /api/v1/auth/password/reset/{token}`. The token is in the
 * fragment: browsers never send it to a server (access logs, Referer).
 */
async function sendResetMail(ports: AuthPorts, email: string): Promise<void> {
  const user = await findUserByEmail(ports.db, email);
  if (!user) return;
  const token = newResetToken();
  await insertPasswordReset(ports.db, { hash: hashToken(token), user_id: user.id, expires_at: new Date(Date.now() + RESET_TTL_MS) });
  const site = (ports.platform.SVC_PUBLIC_URL ?? `http://localhost:${ports.platform.PORT || 8080}`).replace(/\/+$/, '');
  await ports.mailer.send({
    to: user.email,
    subject: 'Password reset',
    text: `Someone asked to reset the password of your Tabula account.\n\nReset link (valid 1 hour, usable once): ${site}/reset-password#${token}\n\nReset token: ${token}\n\nIf this was not you, ignore this message.`,
  });
}
