import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PlatformConfig } from './platform-config';
import { KeyRing, SecretBox, persistentSecret } from './secrets';

/**
 * The at-rest key ring (SVC_ENCRYPTION_KEYS), independent of SVC_INTERNAL_SECRET.
 * docs/encryption-at-rest.md describes the stored format; a test opens a raw
 * row from that description alone, so changing anything here is a format change.
 */

/** File under DATA_DIR holding the generated ring key when SVC_ENCRYPTION_KEYS is not set (standalone, `start:cluster`). */
export const ENCRYPTION_KEY_FILE = 'encryption-key';

/** Salt of the HKDF that derives a purpose's key from a ring key. */
const HKDF_SALT = 'tabula-at-rest';

/** Version tag of values sealed with the ring. */
const FORMAT = 'v3';

/**
 * The ring's keys, newest first: SVC_ENCRYPTION_KEYS, else one key generated
 * once and kept in DATA_DIR/encryption-key (cluster mode requires the setting,
 * so a pod never generates one).
 */
export function encryptionKeysOf(platform: Pick<PlatformConfig, 'SVC_ENCRYPTION_KEYS' | 'DATA_DIR'>): string[] {
  if (platform.SVC_ENCRYPTION_KEYS.length > 0) return platform.SVC_ENCRYPTION_KEYS;
  return [persistentSecret(platform.DATA_DIR, ENCRYPTION_KEY_FILE)];
}

/** A purpose's 256-bit key from one ring key: HKDF-SHA256(ikm = key as UTF-8, salt = "tabula-at-rest", info = purpose). */
export function purposeKey(purpose: string, ringKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(ringKey, 'utf8'), Buffer.from(HKDF_SALT, 'utf8'), Buffer.from(purpose, 'utf8'), 32));
}

/** Key id written into sealed values: the first 8 characters of base64url(sha256(purpose key)). */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/** What a service sealed before the ring, to open (and re-seal) its old values: the former key materials. */
export interface LegacyKeys {
  /** The service's former setting (SVC_META_ENCRYPTION_KEY, …), split on commas when it was a ring. */
  configured?: string[];
  /** File under DATA_DIR the service kept its generated material in (read only when it exists). */
  fileName: string;
}

/**
 * Every key material a service may have sealed with before SVC_ENCRYPTION_KEYS:
 * its own setting, the configured internal secret, its file under DATA_DIR.
 * All of them, not only the one today's settings would pick, so a value still
 * opens when the operator changed how the key was given. Nothing is generated.
 */
export function legacyMaterials(platform: Pick<PlatformConfig, 'SVC_INTERNAL_SECRET' | 'DATA_DIR'>, legacy: LegacyKeys): string[] {
  const file = path.join(path.resolve(platform.DATA_DIR), legacy.fileName);
  const found = [
    ...(legacy.configured ?? []),
    platform.SVC_INTERNAL_SECRET,
    existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined,
  ];
  return [...new Set(found.filter((m): m is string => !!m))];
}

interface PurposeKey {
  id: string;
  key: Buffer;
}

/**
 * AES-256-GCM at rest for one purpose (`tabula-meta-sources`, …) with the ring.
 * Stored form: `v3.<keyId>.<iv>.<tag>.<data>`, base64url parts; data is the
 * JSON of the value. The first ring key seals; every ring key opens. Values
 * sealed before the ring (`v1.<iv>.<tag>.<data>`, `v2.<keyId>.…`, keys derived
 * from the former materials) still open, until {@link needsResealing} has
 * brought them over.
 */
export class AtRestRing {
  private readonly keys: PurposeKey[];
  private readonly legacyBoxes: SecretBox[];
  private readonly legacyRing?: KeyRing;

  constructor(readonly purpose: string, ringKeys: string[], legacy: string[] = []) {
    if (ringKeys.length === 0) throw new Error('the at-rest key ring needs at least one key');
    this.keys = ringKeys.map((k) => {
      const key = purposeKey(purpose, k);
      return { key, id: keyIdOf(key) };
    });
    this.legacyBoxes = legacy.map((m) => new SecretBox(purpose, m));
    if (legacy.length) this.legacyRing = new KeyRing(purpose, legacy);
  }

  /** Id of the key that seals. */
  get primaryId(): string {
    return this.keys[0].id;
  }

  /** How every value sealed with the current key starts (`v3.<keyId>.`). */
  get currentPrefix(): string {
    return `${FORMAT}.${this.primaryId}.`;
  }

  /** Encrypts a JSON value with the first ring key. */
  seal(value: unknown): string {
    const { id, key } = this.keys[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return [FORMAT, id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** Decrypts a value sealed by the ring (any of its keys) or by the legacy keys; throws when nothing opens it. */
  open<T = unknown>(sealed: string): T {
    const version = sealed.slice(0, sealed.indexOf('.'));
    if (version === 'v1') return this.openLegacyBox<T>(sealed);
    if (version === 'v2') {
      if (!this.legacyRing) throw new Error('a v2 value needs the former key (none is configured)');
      return this.legacyRing.open<T>(sealed);
    }
    const [, keyId, iv, tag, data] = sealed.split('.');
    if (version !== FORMAT || !keyId || !iv || !tag || data === undefined) throw new Error('unknown sealed format');
    const entry = this.keys.find((k) => k.id === keyId);
    if (!entry) throw new Error(`no key of SVC_ENCRYPTION_KEYS opens key id ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', entry.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8')) as T;
  }

  /** True unless the value is sealed with the first ring key (legacy formats, older ring keys). */
  needsResealing(sealed: string): boolean {
    return !sealed.startsWith(this.currentPrefix);
  }

  private openLegacyBox<T>(sealed: string): T {
    for (const box of this.legacyBoxes) {
      try {
        return box.open<T>(sealed);
      } catch {
        // the next former material may be the one
      }
    }
    throw new Error('no former key opens this v1 value');
  }
}

/** A purpose's signing keys (HMAC), newest first, as base64url text: HKDF like {@link purposeKey}. */
export function signingKeysOf(purpose: string, ringKeys: string[]): string[] {
  return ringKeys.map((k) => purposeKey(purpose, k).toString('base64url'));
}
