import { z } from 'zod';
import { envBoolean } from '@tabula/config';

/** Settings of the meta service (README: Environment). */
export const metaConfigSchema = z.object({
  /**
   * Key material for encrypting external sources' credentials at rest
   * (AES-256-GCM, key = SHA-256 of this). Defaults to one derived from the
   * internal secret; set it explicitly in standalone mode, where the internal
   * secret may be regenerated on restart.
   */
  SVC_META_ENCRYPTION_KEY: z.string().min(16).optional(),
  /** Allow external sources on loopback and private addresses (development, tests, a database beside Tabula); link-local stays refused. */
  SVC_ALLOW_LOCAL_SOURCES: envBoolean(false),
});

export type MetaConfig = z.infer<typeof metaConfigSchema>;
