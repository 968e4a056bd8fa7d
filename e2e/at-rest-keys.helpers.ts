import { createDecipheriv, createHash, hkdfSync } from 'node:crypto';

/** The purposes each service derives its key for (docs/encryption-at-rest.md). */
export const PURPOSES = {
  meta: 'tabula-meta-sources',
  hooks: 'tabula-hook-secrets',
  integrations: 'tabula-integrations',
  links: 'tabula.storage.dltemp',
} as const;

/**
 * Opens a stored `v3.<keyId>.<iv>.<tag>.<data>` value with one key of
 * SVC_ENCRYPTION_KEYS using node:crypto only, from the documented format (no
 * service code): key = HKDF-SHA256(key, salt "tabula-at-rest", info purpose, 32
 * bytes), keyId = base64url(sha256(key))[0..8], AES-256-GCM, JSON inside.
 */
export function openRaw(ringKey: string, purpose: string, sealed: string): unknown {
  const [version, keyId, iv, tag, data] = sealed.split('.');
  if (version !== 'v3') throw new Error(`not a v3 value: ${version}`);
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(ringKey, 'utf8'), Buffer.from('tabula-at-rest', 'utf8'), Buffer.from(purpose, 'utf8'), 32));
  if (createHash('sha256').update(key).digest('base64url').slice(0, 8) !== keyId) throw new Error('sealed with another key');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'));
}

/** knex connection settings of a PostgreSQL URL. */
export function pgConnection(url: string): Record<string, unknown> {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: u.pathname.slice(1) };
}
