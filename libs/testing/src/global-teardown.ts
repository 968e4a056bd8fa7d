import { rmSync } from 'node:fs';
import type { EmbeddedPostgresHandle } from '../../db/src/embedded-postgres';

/** Stops the embedded PostgreSQL that global-setup started, if any, and removes its folder. */
export default async function globalTeardown(): Promise<void> {
  const state = globalThis as Record<string, unknown>;
  const handle = state.__TABULA_EMBEDDED_PG__ as EmbeddedPostgresHandle | undefined;
  const dir = state.__TABULA_EMBEDDED_PG_DIR__ as string | undefined;
  if (handle) await handle.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
