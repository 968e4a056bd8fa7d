import { createSecretKey, type KeyObject } from 'node:crypto';

const keys = new Map<string, KeyObject>();

/**
 * The HMAC key object of a secret, made once. jsonwebtoken given a plain
 * string first tries to read it as a public key, which throws (and builds an
 * Error) on every call: a third of a read request's CPU in profiles.
 */
export function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}
