import Router from '@koa/router';
import { systemV1, systemV2 } from '@tabula/contracts';
import { route } from '@tabula/http';

/** Version reported by `/api/v1/version` (the NocoDB release our API matches). */
export const PACKAGE_VERSION = '0.301.3';

/** `GET /api/v1/health` and `GET /api/v1/version` (compat-notes "Base info and health"), also under /api/v2. */
export function systemRoutes(startedAt: number): Router {
  const router = new Router();
  for (const e of [systemV1, systemV2]) {
    route(router, e.health, () => ({ message: 'OK', timestamp: Date.now(), uptime: (Date.now() - startedAt) / 1000 }));
    route(router, e.version, () => ({ currentVersion: PACKAGE_VERSION, releaseVersion: PACKAGE_VERSION }));
  }
  return router;
}
