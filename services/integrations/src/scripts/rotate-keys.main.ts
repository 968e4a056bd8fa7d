import path from 'node:path';
import { loadConfig } from '@tabula/config';
import { createKnex, runMigrations, startEmbeddedPostgres } from '@tabula/db';
import { loadPlatformConfig, persistentSecret } from '@tabula/runtime';
import { integrationsConfigSchema } from '../config';
import { keyRingOf } from '../service';
import { migrations } from '../../migrations';
import { INTEGRATIONS_SCHEMA } from '../repositories/integration.repository';
import { rotateKeys } from '../domain/rotate-keys';

/**
 * `npm run integrations:rotate-keys`: re-seals every integration config with
 * the first key of SVC_INTEGRATIONS_ENCRYPTION_KEY. Same settings as the
 * service (DATABASE_URL, or the embedded PostgreSQL under DATA_DIR when Tabula
 * is stopped). Afterwards the old keys can be removed from the setting.
 */
async function main(): Promise<void> {
  const platform = loadPlatformConfig(process.env);
  const config = loadConfig(integrationsConfigSchema, process.env);
  const internalSecret = platform.SVC_INTERNAL_SECRET ?? persistentSecret(platform.DATA_DIR, 'internal-secret');
  const ring = keyRingOf({ platform: { ...platform, SVC_INTERNAL_SECRET: internalSecret }, internalSecret }, config);
  const embedded = platform.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve(platform.DATA_DIR) });
  const db = createKnex({ url: platform.DATABASE_URL ?? embedded!.url, poolMax: 2, statementTimeoutMs: 0, applicationName: 'tabula-integrations-rotate' });
  try {
    await runMigrations(db, INTEGRATIONS_SCHEMA, migrations);
    const report = await rotateKeys(db, ring);
    process.stdout.write(`${JSON.stringify({ keyId: ring.primaryId, ...report })}\n`);
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`integrations:rotate-keys failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
