import type { EmbeddedPostgresHandle } from '../../db/src/embedded-postgres';

/** Stops the embedded PostgreSQL that global-setup started, if any. */
export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as Record<string, unknown>).__TABULA_EMBEDDED_PG__ as EmbeddedPostgresHandle | undefined;
  if (handle) await handle.stop();
}
