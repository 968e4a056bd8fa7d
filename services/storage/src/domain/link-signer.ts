import { createHmac, timingSafeEqual } from 'node:crypto';

/** A verified `/dltemp` token: the key it grants and until when. */
export interface SignedGrant {
  key: string;
  expiresAt: number;
}

/** A former signing key, trusted only for links expiring by `notAfter` (ms): those signed before it was replaced. */
export interface FormerSigningKey {
  secret: string;
  notAfter: number;
}

/**
 * HMAC-signed, expiring download tokens: `<expiry>.<base64url key>.<sig>`,
 * sig = HMAC-SHA256(secret, "dltemp.<expiry>.<key>"). Nothing else in the
 * token (no header, no file name) is trusted. The first secret signs; every
 * secret verifies (a key ring: links survive a rotation).
 */
export class LinkSigner {
  private readonly secrets: string[];

  constructor(
    secrets: string | string[], private readonly ttlSeconds: number, private readonly now: () => number = Date.now,
    private readonly former: FormerSigningKey[] = [],
  ) {
    this.secrets = typeof secrets === 'string' ? [secrets] : secrets;
    if (this.secrets.length === 0) throw new Error('LinkSigner needs a secret');
  }

  private mac(secret: string, expiry: number, key: string): Buffer {
    return createHmac('sha256', secret).update(`dltemp.${expiry}.${key}`).digest();
  }

  /** A token for the key, valid for the configured lifetime. */
  sign(key: string): string {
    const expiry = Math.floor(this.now() / 1000) + this.ttlSeconds;
    return `${expiry}.${Buffer.from(key).toString('base64url')}.${this.mac(this.secrets[0], expiry, key).toString('base64url')}`;
  }

  /** The grant of a token, or why it is refused ('invalid' or 'expired'). */
  verify(token: string): SignedGrant | 'invalid' | 'expired' {
    const m = /^(\d{1,12})\.([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return 'invalid';
    const expiry = Number(m[1]);
    const key = Buffer.from(m[2], 'base64url').toString('utf8');
    const given = Buffer.from(m[3], 'base64url');
    // non-canonical base64 (ignored trailing bits) would make tokens malleable
    if (Buffer.from(key).toString('base64url') !== m[2] || given.toString('base64url') !== m[3]) return 'invalid';
    const trusted = [...this.secrets, ...this.former.filter((f) => expiry * 1000 <= f.notAfter).map((f) => f.secret)];
    if (!trusted.some((secret) => this.matches(given, this.mac(secret, expiry, key)))) return 'invalid';
    if (expiry * 1000 < this.now()) return 'expired';
    return { key, expiresAt: expiry * 1000 };
  }

  private matches(given: Buffer, expected: Buffer): boolean {
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
