import { z } from 'zod';
import { envBoolean } from '@tabula/config';

/** Settings of the meta service (docs/configuration.md). */
export const metaConfigSchema = z.object({
  /**
   * Former key material of external sources' credentials (before
   * SVC_ENCRYPTION_KEYS): it only opens what was sealed with it, which meta
   * re-seals with the ring at start-up; remove it once that has run.
   */
  SVC_META_ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Allow external sources on loopback and private addresses (development, tests, a database beside Tabula); link-local stays refused. */
  SVC_ALLOW_LOCAL_SOURCES: envBoolean(false),
});

export type MetaConfig = z.infer<typeof metaConfigSchema>;
