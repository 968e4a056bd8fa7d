import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for hook signing secrets at rest. Stored form: `v1.<iv>.<tag>.<data>`
 * (base64url), so the key can be rotated later by bumping the version.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string) {
    this.key = createHash('sha256').update(`tabula-hook-secrets:${material}`).digest();
  }

  /** Encrypts a JSON value. */
  seal(value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  /** Decrypts what {@link seal} produced; throws when tampered with or keyed differently. */
  open<T = unknown>(sealed: string): T {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  }
}
