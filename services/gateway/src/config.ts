import { z } from 'zod';
import { envBoolean, envInt, envList } from '@tabula/config';
import { CidrList } from '@tabula/http';

/** Gateway settings (docs/configuration.md). */
export const gatewayConfigSchema = z.object({
  /** How long an authenticated principal is cached (ms); 0 disables the cache. */
  SVC_AUTH_CACHE_TTL_MS: envInt(10_000, 0, 300_000),
  /** Largest request body the gateway forwards, except uploads (bytes). */
  SVC_GATEWAY_MAX_BODY_BYTES: envInt(10 * 1024 * 1024, 1024),
  /** Largest upload request (bytes); storage enforces the per-file limit. */
  SVC_GATEWAY_MAX_UPLOAD_BYTES: envInt(250 * 1024 * 1024, 1024),
  /** Origins allowed cross-origin requests with credentials (cookies); others get `*` without credentials. */
  SVC_CORS_ORIGINS: envList(),
  /** Proxies (CIDRs) whose `X-Forwarded-*` headers are believed; none by default. */
  SVC_TRUSTED_PROXIES: envList().superRefine((cidrs, ctx) => {
    try { new CidrList(cidrs); } catch (err) { ctx.addIssue({ code: 'custom', message: (err as Error).message }); }
  }),
  /** API requests take the gateway's direct path (edge-handler.ts) instead of its Koa app; off: everything through Koa. */
  SVC_GATEWAY_DIRECT_PATH: envBoolean(true),
  /** Folder of the built web app (index.html and assets/); default: dist/web (docs/web.md). */
  SVC_WEB_DIR: z.string().min(1).optional(),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
