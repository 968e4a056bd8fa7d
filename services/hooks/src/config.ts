import { z } from 'zod';
import { envBoolean, envInt } from '@tabula/config';

/** Settings of the hooks service (README: Environment). */
export const hooksConfigSchema = z.object({
  /** Key material sealing hook secrets at rest; defaults to one derived from the internal secret. */
  SVC_HOOKS_ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Allow loopback and private targets (development, tests). Link-local/metadata stay refused. */
  SVC_ALLOW_LOCAL_HOOKS: envBoolean(false),
  /** Hook logs older than this are deleted. */
  SVC_HOOK_LOG_RETENTION_DAYS: envInt(30, 1, 36_500),
  /** How often the delivery worker looks for due deliveries (it is also woken on new ones). */
  SVC_HOOKS_POLL_MS: envInt(500, 10, 3_600_000),
  /** Deliveries in flight per process. */
  SVC_HOOKS_CONCURRENCY: envInt(32, 1, 500),
});

export type HooksConfig = z.infer<typeof hooksConfigSchema>;
