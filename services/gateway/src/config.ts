import { z } from 'zod';
import { envInt, envList } from '@tabula/config';

/** Gateway settings (README: Environment). */
export const gatewayConfigSchema = z.object({
  /** How long an authenticated principal is cached (ms); 0 disables the cache. */
  SVC_AUTH_CACHE_TTL_MS: envInt(10_000, 0, 300_000),
  /** Largest request body the gateway forwards, except uploads (bytes). */
  SVC_GATEWAY_MAX_BODY_BYTES: envInt(10 * 1024 * 1024, 1024),
  /** Largest upload request (bytes); storage enforces the per-file limit. */
  SVC_GATEWAY_MAX_UPLOAD_BYTES: envInt(250 * 1024 * 1024, 1024),
  /** Allowed CORS origins; empty means any origin (reflected). */
  SVC_CORS_ORIGINS: envList(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
