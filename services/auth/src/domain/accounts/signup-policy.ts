import { errors } from '@tabula/http';
import type { SignupMode } from '../../config';

/** NocoDB's words when sign-up is not open to an e-mail. */
export const SIGNUP_REFUSED = 'Not allowed to signup, contact super admin.';

/**
 * SVC_SIGNUP: `open` lets anyone in; `invite` the first user and e-mails with
 * a pending invitation; `closed` the first user only. The first user (no
 * account yet) is always let in: someone must become super admin.
 */
export function maySignUp(mode: SignupMode, existingUsers: number, invited: boolean): boolean {
  if (existingUsers === 0 || mode === 'open') return true;
  return mode === 'invite' && invited;
}

/** 403 `{ error: 'ERR_FORBIDDEN', message, msg }` unless {@link maySignUp}. */
export function assertMaySignUp(mode: SignupMode, existingUsers: number, invited: boolean): void {
  if (!maySignUp(mode, existingUsers, invited)) throw errors.forbidden(SIGNUP_REFUSED);
}
