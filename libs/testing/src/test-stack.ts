import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { startStandalone, type ServiceDefinition } from '@tabula/runtime';
import { createTestDatabase, type TestDatabase } from './database';

/** A whole Tabula (the given services + gateway) on a fresh database. */
export interface TestStack {
  url: string;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * Starts the given service definitions in one process (standalone mode) on a
 * fresh PostgreSQL database, a random port and a temporary DATA_DIR. `env`
 * overrides settings (e.g. EVENT_BUS=redis).
 */
export async function startTestStack(definitions: ServiceDefinition<any, any>[], env: Record<string, string> = {}): Promise<TestStack> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tabula-stack-'));
  const handle = await startStandalone({
    definitions,
    env: {
      ...process.env, TABULA_MODE: 'standalone', DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1',
      EVENT_BUS: 'memory', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', OTEL_SDK_DISABLED: 'true', ...env,
    },
  });
  return {
    url: handle.url,
    database,
    async stop() {
      await handle.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
