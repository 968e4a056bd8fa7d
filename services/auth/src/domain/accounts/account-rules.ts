import { errors } from '@tabula/http';

/** Minimum password length (compat-notes "Error bodies"). */
export const MIN_PASSWORD_LENGTH = 8;

/** Passwords beyond this are refused rather than hashed (argon2 cost on huge input). */
const MAX_PASSWORD_LENGTH = 1024;

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Lower-cases and validates an e-mail; 400 `Invalid email` otherwise. */
export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw errors.badRequest('Invalid email');
  return email;
}

/** 400 unless the password has an acceptable length. */
export function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.badRequest(`${field}: Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) throw errors.badRequest(`${field}: Password is too long`);
}

/** The org roles of a new user: the first is super (compat-notes "Auth"). */
export function rolesForNewUser(existingUsers: number): string {
  return existingUsers === 0 ? 'org-level-creator,super' : 'org-level-viewer';
}

/** The comma string of org roles as a list. */
export function roleList(roles: string): string[] {
  return roles.split(',').map((r) => r.trim()).filter(Boolean);
}
