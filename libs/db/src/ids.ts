import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * Id prefixes of compat-notes "Identifiers and paths": base `p`/`b`, table `m`,
 * column `c`, view `vw`, filter `fi`, sort `so`, source/workspace `nc`, hook
 * `hk`, hook log `hkl`, integration `int`, table index `ix`.
 */
export type IdPrefix = 'p' | 'b' | 'm' | 'c' | 'vw' | 'fi' | 'so' | 'nc' | 'hk' | 'hkl' | 'int' | 'ix';

/** A prefix plus 14 characters of [0-9a-z] from the CSPRNG (rejection sampling keeps it unbiased). */
export function newId(prefix: IdPrefix): string {
  let out = '';
  while (out.length < 14) {
    for (const byte of randomBytes(24)) {
      if (byte < 252 && out.length < 14) out += ALPHABET[byte % 36];
    }
  }
  return prefix + out;
}
