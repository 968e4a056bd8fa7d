import { startEmbeddedPostgres } from '../../db/src/embedded-postgres';
import { createTestPgDir, removeStaleTestPg } from './embedded-test-pg';

/**
 * Jest global setup: without DATABASE_URL (a fresh laptop) the tests run on an
 * embedded PostgreSQL started here in a temp folder (removed by the teardown;
 * folders of killed runs are removed here); with it (CI) nothing is started.
 */
export default async function globalSetup(): Promise<void> {
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
