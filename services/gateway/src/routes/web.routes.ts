import type { Middleware } from 'koa';
import type { WebAssets } from '../adapters/web-assets';

/**
 * Headers of every page and file of the web app: scripts and styles only from
 * this origin (no inline script: Vite emits none), API calls to this origin,
 * images also as `blob:`/`data:` (attachment previews), never framed, no MIME sniffing.
 */
export const WEB_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:",
    "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/** Paths that never fall back to the page: the API (unknown API paths stay 404 JSON) and the services' own paths. */
const NOT_PAGES = /^\/(api|internal|download|dltemp|healthz|readyz|metrics)(\/|$)/i;
/** A path naming a file (an extension in its last segment): a missing one is 404, not the page. */
const LOOKS_LIKE_FILE = /\.[A-Za-z0-9]+$/;

/**
 * The web app (services/web, built into dist/web) for the gateway's GETs that
 * no route serves: a file of the app, or index.html for any other path (the
 * app's client-side routes: `/bases/…`, `/reset-password`, …). Everything else
 * — other methods, API paths, a request a service serves — goes on to dispatch.
 */
export function webAppMiddleware(assets: WebAssets, servedByService: (method: string, path: string) => boolean): Middleware {
  return async (ctx, next) => {
    if (!assets.present || (ctx.method !== 'GET' && ctx.method !== 'HEAD') || NOT_PAGES.test(ctx.path) || servedByService(ctx.method, ctx.path)) {
      await next();
      return;
    }
    const file = assets.file(ctx.path) ?? (LOOKS_LIKE_FILE.test(ctx.path) ? undefined : assets.index());
    if (!file) {
      await next();
      return;
    }
    ctx.state.routeTemplate = 'web';
    for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS)) ctx.set(name, value);
    ctx.set('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.type = file.type;
    ctx.body = file.body;
  };
}
