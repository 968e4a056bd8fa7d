import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../db/src/embedded-postgres';
import { createTestPgDir, removeStaleTestPg } from './embedded-test-pg';

/**
 * Builds the process bundles (dist/<service>/main.js, about 2 s) from the
 * current sources once per run: test clusters run them (cluster.ts), so each
 * of their processes starts without compiling TypeScript, and no test runs a
 * bundle older than the code under test.
 */
function buildBundles(): void {
  execFileSync(process.execPath, [path.join(__dirname, '../../../scripts/build-service.mjs'), 'all'], { stdio: 'ignore' });
}

/**
 * Jest global setup: builds the bundles (above); without DATABASE_URL (a fresh laptop) the tests run on an
 * embedded PostgreSQL started here in a temp folder (removed by the teardown;
 * folders of killed runs are removed here); with it (CI) nothing is started.
 */
export default async function globalSetup(): Promise<void> {
  buildBundles();
  if (process.env.DATABASE_URL) return;
  removeStaleTestPg();
  const dir = createTestPgDir();
  const handle = await startEmbeddedPostgres({ dataDir: dir });
  process.env.DATABASE_URL = handle.url;
  const state = globalThis as Record<string, unknown>;
  state.__TABULA_EMBEDDED_PG__ = handle;
  state.__TABULA_EMBEDDED_PG_DIR__ = dir;
  console.log(`\nDATABASE_URL not set: tests use an embedded PostgreSQL in ${dir}`);
}
