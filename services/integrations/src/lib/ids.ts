import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `int` plus 14 characters of [0-9a-z] from the CSPRNG (NocoDB's integration id prefix). */
export function newIntegrationId(): string {
  let out = '';
  while (out.length < 14) {
    for (const byte of randomBytes(24)) {
      if (byte < 252 && out.length < 14) out += ALPHABET[byte % 36];
    }
  }
  return `int${out}`;
}
