import Router from '@koa/router';
import { systemV1, systemV2 } from '@tabula/contracts';
import { markReported, route } from '@tabula/http';
import { errors } from '@tabula/errors';
import { version as TABULA_VERSION } from '../../../../package.json';

/** Version reported by `/api/v1/version` (the NocoDB release our API matches). */
export const PACKAGE_VERSION = '0.301.3';

/**
 * `GET /api/v1/health` and `GET /api/v1/version` (compat-notes "Base info and health"), also under /api/v2.
 * Health answers 503 while the database does not (`database` is the shared, logged readiness check).
 */
export function systemRoutes(startedAt: number, database: () => Promise<unknown> = async () => undefined): Router {
  const router = new Router();
  for (const e of [systemV1, systemV2]) {
    route(router, e.health, async () => {
      // the database check logs its failures once per interval: the 503 itself is not logged per poll
      try { await database(); } catch { throw markReported(errors.unavailable('Database unavailable')); }
      return { message: 'OK', timestamp: Date.now(), uptime: (Date.now() - startedAt) / 1000 };
    });
    route(router, e.version, () => ({ currentVersion: PACKAGE_VERSION, releaseVersion: PACKAGE_VERSION, tabulaVersion: TABULA_VERSION }));
  }
  return router;
}
