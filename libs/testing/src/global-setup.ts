import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { startEmbeddedPostgres } from '../../db/src/embedded-postgres';

/**
 * Jest global setup: without DATABASE_URL (a fresh laptop) the tests run on an
 * embedded PostgreSQL started here; with it (CI) nothing is started.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tabula-test-pg-'));
  const handle = await startEmbeddedPostgres({ dataDir: dir });
  process.env.DATABASE_URL = handle.url;
  (globalThis as Record<string, unknown>).__TABULA_EMBEDDED_PG__ = handle;
   
  console.log(`\nDATABASE_URL not set: tests use an embedded PostgreSQL in ${dir}`);
}
