import { z } from 'zod';
import { envBoolean } from '@tabula/config';

/** Settings of the integrations service (docs/configuration.md). */
export const integrationsConfigSchema = z.object({
  /**
   * Former key ring of integration configs (before SVC_ENCRYPTION_KEYS),
   * comma-separated: it only opens what it sealed, which integrations re-seals
   * with SVC_ENCRYPTION_KEYS at start-up (or `npm run integrations:rotate-keys`);
   * remove it once that has run.
   */
  SVC_INTEGRATIONS_ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Allow database integrations (and AI endpoints) on loopback and private addresses. Link-local/metadata stay refused. */
  SVC_ALLOW_LOCAL_SOURCES: envBoolean(false),
  /** Timeout of testConnection and other database endpoint calls. */
  SVC_INTEGRATIONS_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Timeout of AI endpoint calls (chat). */
  SVC_INTEGRATIONS_AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
});

export type IntegrationsConfig = z.infer<typeof integrationsConfigSchema>;
