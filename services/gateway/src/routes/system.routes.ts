import Router from '@koa/router';

/** Version reported by `/api/v1/version` (the NocoDB release our API matches). */
export const PACKAGE_VERSION = '0.301.3';

/** `GET /api/v1/health` and `GET /api/v1/version` (compat-notes "Base info and health"). */
export function systemRoutes(startedAt: number): Router {
  const router = new Router();
  router.get(['/api/v1/health', '/api/v2/health'], (ctx) => {
    ctx.body = { message: 'OK', timestamp: Date.now(), uptime: (Date.now() - startedAt) / 1000 };
  });
  router.get(['/api/v1/version', '/api/v2/version'], (ctx) => {
    ctx.body = { currentVersion: PACKAGE_VERSION, releaseVersion: PACKAGE_VERSION };
  });
  return router;
}
