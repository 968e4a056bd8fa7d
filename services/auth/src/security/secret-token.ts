import { createHash, randomBytes, randomInt } from 'node:crypto';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A NocoDB-style id: prefix plus 14 characters of [0-9a-z] (compat-notes "Identifiers"). */
export function newId(prefix: string): string {
  let out = prefix;
  for (let i = 0; i < 14; i += 1) out += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return out;
}

/** SHA-256 hex of a secret token: what we store instead of the token (high-entropy input, no salt needed). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A refresh token: 40 random bytes as hex (compat-notes "Auth"). */
export function newRefreshToken(): string {
  return randomBytes(40).toString('hex');
}

/** An API token: 40 characters of [A-Za-z0-9_-] (30 random bytes, base64url). */
export function newApiToken(): string {
  return randomBytes(30).toString('base64url');
}

/** A password-reset token (32 random bytes, URL-safe). */
export function newResetToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A fresh `token_version`: rotating it kills every JWT issued before. */
export function newTokenVersion(): string {
  return randomBytes(16).toString('hex');
}
