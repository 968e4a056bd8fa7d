import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * Standalone mode keeps a generated secret under DATA_DIR so JWTs survive a
 * restart; cluster mode never gets here (the setting is required there).
 */
export function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(path.resolve(dataDir), name);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}
