import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

interface RingKey {
  id: string;
  key: Buffer;
}

/**
 * AES-256-GCM with a key ring for integration configs at rest. Stored form:
 * `v2.<keyId>.<iv>.<tag>.<data>` (base64url); the key id (a short hash of the
 * key) says which key of the ring opens it. The first key seals; every key
 * opens, so an old key keeps working until the rotation command has re-sealed
 * every row with the new one.
 */
export class KeyRing {
  private readonly keys: RingKey[];

  constructor(materials: string[]) {
    if (materials.length === 0) throw new Error('the key ring needs at least one key');
    this.keys = materials.map((material) => {
      const key = createHash('sha256').update(`tabula-integrations:${material}`).digest();
      return { key, id: createHash('sha256').update(key).digest('base64url').slice(0, 8) };
    });
  }

  /** Splits `SVC_INTEGRATIONS_ENCRYPTION_KEY` (comma-separated) into a ring. */
  static fromSetting(setting: string): KeyRing {
    return new KeyRing(setting.split(',').map((k) => k.trim()).filter((k) => k.length > 0));
  }

  /** Id of the key that seals. */
  get primaryId(): string {
    return this.keys[0].id;
  }

  /** Encrypts a JSON value with the first key. */
  seal(value: unknown): string {
    const { id, key } = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return ['v2', id, ...[iv, cipher.getAuthTag(), data].map((p) => p.toString('base64url'))].join('.');
  }

  /** Decrypts what {@link seal} produced with any key of the ring; throws when no key opens it. */
  open<T = unknown>(sealed: string): T {
    const [version, keyId, iv, tag, data] = sealed.split('.');
    if (version !== 'v2' || !keyId || !iv || !tag || data === undefined) throw new Error('unknown sealed format');
    const ring = this.keys.find((k) => k.id === keyId);
    if (!ring) throw new Error(`no key of the ring opens key id ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', ring.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  }

  /** True when the value was sealed by another key than the first (rotation pending). */
  needsResealing(sealed: string): boolean {
    return sealed.split('.')[1] !== this.primaryId;
  }
}
