import { z } from 'zod';

/** Settings of the meta service (README: Environment). */
export const metaConfigSchema = z.object({
  /**
   * Key material for encrypting external sources' credentials at rest
   * (AES-256-GCM, key = SHA-256 of this). Defaults to one derived from the
   * internal secret; set it explicitly in standalone mode, where the internal
   * secret may be regenerated on restart.
   */
  SVC_META_ENCRYPTION_KEY: z.string().min(16).optional(),
});

export type MetaConfig = z.infer<typeof metaConfigSchema>;
