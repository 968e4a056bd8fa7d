import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * Generated persistent secrets (the platform's JWT and internal secrets, the
 * at-rest ring key in standalone) and the former at-rest formats: `SecretBox`
 * (`v1`, meta and hooks) and `KeyRing` (`v2`, integrations) with keys derived
 * by sha256(`<purpose>:<material>`). They only open values sealed before
 * SVC_ENCRYPTION_KEYS (at-rest-keys.ts), which re-seals them.
 */

/**
 * Standalone mode keeps a generated secret under DATA_DIR so JWTs, sealed
 * credentials and signed links survive a restart; cluster mode never gets here
 * for required settings.
 */
export function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(path.resolve(dataDir), name);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** A 256-bit key for one purpose from key material: sha256(`<purpose>:<material>`). */
export function deriveKey(purpose: string, material: string): Buffer {
  return createHash('sha256').update(`${purpose}:${material}`).digest();
}

/** An HMAC-SHA256 signing key for one purpose, as base64url text. */
export function deriveSigningKey(purpose: string, material: string): string {
  return createHmac('sha256', material).update(purpose).digest('base64url');
}

/** AES-256-GCM of a JSON value: iv, tag and data. */
function encrypt(key: Buffer, value: unknown): Buffer[] {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data];
}

function decrypt<T>(key: Buffer, iv: string, tag: string, data: string): T {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')) as T;
}

/**
 * AES-256-GCM for secrets at rest with one key. Stored form:
 * `v1.<iv>.<tag>.<data>` (base64url). The purpose keeps each service's key
 * apart (`tabula-meta-sources`, `tabula-hook-secrets`).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(purpose: string, material: string) {
    this.key = deriveKey(purpose, material);
  }

  /** Encrypts a JSON value. */
  seal(value: unknown): string {
    return ['v1', ...encrypt(this.key, value).map((p) => p.toString('base64url'))].join('.');
  }

  /** Decrypts what {@link seal} produced; throws when tampered with or keyed differently. */
  open<T = unknown>(sealed: string): T {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed format');
    return decrypt<T>(this.key, iv, tag, data);
  }
}

interface RingKey {
  id: string;
  key: Buffer;
}

/**
 * AES-256-GCM with a key ring. Stored form: `v2.<keyId>.<iv>.<tag>.<data>`
 * (base64url); the key id (a short hash of the key) says which key of the ring
 * opens it. The first key seals; every key opens, so an old key keeps working
 * until a rotation has re-sealed every row with the new one.
 */
export class KeyRing {
  private readonly keys: RingKey[];

  constructor(purpose: string, materials: string[]) {
    if (materials.length === 0) throw new Error('the key ring needs at least one key');
    this.keys = materials.map((material) => {
      const key = deriveKey(purpose, material);
      return { key, id: createHash('sha256').update(key).digest('base64url').slice(0, 8) };
    });
  }

  /** Splits a comma-separated setting into a ring. */
  static fromSetting(purpose: string, setting: string): KeyRing {
    return new KeyRing(purpose, setting.split(',').map((k) => k.trim()).filter((k) => k.length > 0));
  }

  /** Id of the key that seals. */
  get primaryId(): string {
    return this.keys[0].id;
  }

  /** Encrypts a JSON value with the first key. */
  seal(value: unknown): string {
    const { id, key } = this.keys[0];
    return ['v2', id, ...encrypt(key, value).map((p) => p.toString('base64url'))].join('.');
  }

  /** Decrypts what {@link seal} produced with any key of the ring; throws when no key opens it. */
  open<T = unknown>(sealed: string): T {
    const [version, keyId, iv, tag, data] = sealed.split('.');
    if (version !== 'v2' || !keyId || !iv || !tag || data === undefined) throw new Error('unknown sealed format');
    const ring = this.keys.find((k) => k.id === keyId);
    if (!ring) throw new Error(`no key of the ring opens key id ${keyId}`);
    return decrypt<T>(ring.key, iv, tag, data);
  }

  /** True when the value was sealed by another key than the first (rotation pending). */
  needsResealing(sealed: string): boolean {
    return sealed.split('.')[1] !== this.primaryId;
  }
}
