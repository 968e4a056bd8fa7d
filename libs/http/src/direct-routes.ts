import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { RequestHandler } from './local-service-client';
import { serviceAppParts } from './service-app';

/** What the direct path reads of a router's layer (a registered route of @koa/router). */
interface RouteLayer {
  path: string;
  name?: string | null;
  methods: string[];
  stack: Middleware[];
  match(path: string): boolean;
  captures(path: string): string[];
  params(path: string, captures: string[], existing?: Record<string, string>): Record<string, string>;
}

/** The Koa internals the direct path calls: the same context and response writing as `app.callback()`. */
interface KoaInternals {
  createContext(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): Koa.Context;
  handleRequest(ctx: Koa.Context, fn: (ctx: Koa.Context) => Promise<unknown>): Promise<unknown>;
  ctxStorage?: unknown;
  /** The composer `app.callback()` uses (koa-compose unless the app was given another). */
  compose(middleware: Middleware[]): (ctx: Koa.Context) => Promise<unknown>;
}

/**
 * A request handler serving the routes named in `hot` (their endpoint ids)
 * without the app's middleware stack around the routers, everything else
 * through `app.callback()`. A request goes the direct path when the first
 * route the app's routers would run for it (routers in order, routes in
 * order, path and method matched as @koa/router does) is a hot one; it then
 * runs through the same Koa context and response writing, the same layers in
 * front of the routers (request id, log fields, metrics, access line,
 * errors as JSON, body parser, NUL guard, identity: createServiceApp's), and
 * the route's own guard and handler with the parameters the router would have
 * set — without the ten routers' matching and `allowedMethods` layers and
 * the composition of about thirty layers the app runs for each request. Only
 * GET and POST take it (a HEAD, 405 or 501 goes through the app). The
 * answers are the app's, byte for byte (direct-routes.test.ts and the data
 * service's equivalence test compare both paths).
 */
export function directRoutes(app: Koa, hot: ReadonlySet<string>): RequestHandler {
  const viaApp = app.callback() as RequestHandler;
  const parts = serviceAppParts(app);
  const koa = app as unknown as KoaInternals;
  // An app with an AsyncLocalStorage of its contexts (Koa's `asyncLocalStorage`) or a fallback after its routers keeps its own path.
  if (!parts || parts.fallback || koa.ctxStorage) return viaApp;
  const layers = parts.routers.flatMap((router) => (router as unknown as { stack: RouteLayer[] }).stack);
  const chains = new Map<RouteLayer, (ctx: Koa.Context) => Promise<unknown>>();
  for (const layer of layers) {
    if (!layer.name || !hot.has(layer.name) || layer.methods.length === 0) continue;
    chains.set(layer, koa.compose([...parts.front, routeParams(layer), ...layer.stack]));
  }
  if (chains.size === 0) return viaApp;
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'POST') return viaApp(req, res);
    const ctx = koa.createContext(req, res);
    const path = ctx.path;
    let first: RouteLayer | undefined;
    for (const layer of layers) {
      if (layer.methods.length > 0 && layer.methods.includes(method) && layer.match(path)) { first = layer; break; }
    }
    const chain = first && chains.get(first);
    if (!chain) return viaApp(req, res);
    void koa.handleRequest(ctx, chain);
  };
}

/** What @koa/router sets on the context before a matched route's stack runs. */
function routeParams(layer: RouteLayer): Middleware {
  return (ctx, next) => {
    const routed = ctx as unknown as Record<string, unknown> & { request: { params?: Record<string, string> } };
    const captures = layer.captures(ctx.path);
    routed.captures = captures;
    routed.request.params = layer.params(ctx.path, captures, routed.params as Record<string, string> | undefined);
    routed.params = routed.request.params;
    routed.routerPath = layer.path;
    routed.routerName = layer.name || undefined;
    routed._matchedRoute = layer.path;
    if (layer.name) routed._matchedRouteName = layer.name;
    return next();
  };
}
