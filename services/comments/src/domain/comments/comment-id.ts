import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A comment id: `com` plus 14 characters of [0-9a-z] from the CSPRNG (compat-notes "Identifiers"). */
export function newCommentId(): string {
  let out = '';
  while (out.length < 14) {
    for (const byte of randomBytes(24)) {
      // 252 = 7 * 36: rejecting the rest keeps every character equally likely
      if (byte < 252 && out.length < 14) out += ALPHABET[byte % 36];
    }
  }
  return `com${out}`;
}
