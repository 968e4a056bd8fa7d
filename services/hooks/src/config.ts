import { z } from 'zod';
import { envBoolean, envInt } from '@tabula/config';

/** Settings of the hooks service (docs/configuration.md). */
export const hooksConfigSchema = z.object({
  /** Former key material of hook secrets (before SVC_ENCRYPTION_KEYS): opens only what it sealed, re-sealed with the ring at start-up. */
  SVC_HOOKS_ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Allow loopback and private targets (development, tests). Link-local/metadata stay refused. */
  SVC_ALLOW_LOCAL_HOOKS: envBoolean(false),
  /** Hook logs older than this are deleted. */
  SVC_HOOK_LOG_RETENTION_DAYS: envInt(30, 1, 36_500),
  /** How often the delivery worker looks for due deliveries (it is also woken on new ones). */
  SVC_HOOKS_POLL_MS: envInt(500, 10, 3_600_000),
  /** Deliveries in flight per process. */
  SVC_HOOKS_CONCURRENCY: envInt(32, 1, 500),
  /** Fresh deliveries queued in memory for the sender beyond those in flight (direct hand-off); more wait for the poll. */
  SVC_HOOKS_HANDOFF_QUEUE: envInt(256, 0, 10_000),
  /** Kept-alive sockets per hook target origin (bounded pool). */
  SVC_HOOKS_CONNECTIONS_PER_TARGET: envInt(16, 1, 1000),
  /** Tables whose active hooks and filters are cached. */
  SVC_HOOKS_CACHE_TABLES: envInt(10_000, 1, 1_000_000),
  /** Backstop age of a cached table's hooks (changes invalidate it at once). */
  SVC_HOOKS_CACHE_TTL_MS: envInt(60_000, 0, 3_600_000),
  /**
   * A delivery process whose heartbeat (every third of this) is older than this is taken for dead:
   * its claimed deliveries are taken over at once instead of when their locks expire (timeout + 30 s).
   */
  SVC_HOOKS_WORKER_TTL_MS: envInt(15_000, 1_000, 3_600_000),
});

export type HooksConfig = z.infer<typeof hooksConfigSchema>;
