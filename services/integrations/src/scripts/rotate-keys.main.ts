import path from 'node:path';
import { loadConfig } from '@tabula/config';
import { createKnex, runMigrations, startEmbeddedPostgres } from '@tabula/db';
import { loadPlatformConfig, persistentSecret, resealStale } from '@tabula/runtime';
import { integrationsConfigSchema } from '../config';
import { keyRingOf } from '../service';
import { migrations } from '../../migrations';
import { INTEGRATIONS_SCHEMA, sealedIntegrationConfigs } from '../repositories/integration.repository';

/**
 * `npm run integrations:rotate-keys`: re-seals every integration config not
 * sealed with the first key of SVC_ENCRYPTION_KEYS (the service also does it
 * at start-up). Same settings as the service (DATABASE_URL, or the embedded
 * PostgreSQL under DATA_DIR when Tabula is stopped). Exits 1 naming the rows no
 * key opens; otherwise the older keys can be removed afterwards.
 */
async function main(): Promise<void> {
  const loaded = loadPlatformConfig(process.env);
  // standalone keeps its generated internal secret here: a former key of values sealed before the ring
  const platform = { ...loaded, SVC_INTERNAL_SECRET: loaded.SVC_INTERNAL_SECRET ?? persistentSecret(loaded.DATA_DIR, 'internal-secret') };
  const ring = keyRingOf({ platform }, loadConfig(integrationsConfigSchema, process.env));
  const embedded = platform.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve(platform.DATA_DIR) });
  const db = createKnex({ url: platform.DATABASE_URL ?? embedded!.url, poolMax: 2, statementTimeoutMs: 0, applicationName: 'tabula-integrations-rotate' });
  try {
    await runMigrations(db, INTEGRATIONS_SCHEMA, migrations);
    const report = await resealStale(db, ring, sealedIntegrationConfigs);
    process.stdout.write(`${JSON.stringify({ keyId: ring.primaryId, ...report })}\n`);
    if (report.unreadable.length) {
      throw new Error(`integrations ${report.unreadable.join(', ')}: no key opens them; keep their key in SVC_ENCRYPTION_KEYS (or the former SVC_INTEGRATIONS_ENCRYPTION_KEY)`);
    }
  } finally {
    await db.destroy();
    await embedded?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`integrations:rotate-keys failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
