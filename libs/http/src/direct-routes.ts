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
  const routers = parts.routers as unknown as RouterShape[];
  const layers = routers.flatMap((router) => router.stack);
  const chains = new Map<RouteLayer, (ctx: Koa.Context) => Promise<unknown>>();
  for (const router of routers) {
    // A router-level middleware (router.use), a host or an `exclusive` choice changes which layers run: such a router keeps its own path.
    if (router.opts?.host || router.opts?.exclusive || router.stack.some((layer) => layer.methods.length === 0)) continue;
    for (const layer of router.stack) {
      if (!layer.name || !hot.has(layer.name)) continue;
      chains.set(layer, koa.compose([...parts.front, routeParams(layer), ...layer.stack]));
    }
  }
  if (chains.size === 0) return viaApp;
  const firstRoute = routeFinder(layers.filter((layer) => layer.methods.length > 0));
  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'POST') return viaApp(req, res);
    const ctx = koa.createContext(req, res);
    const first = firstRoute(method, ctx.path);
    const chain = first && chains.get(first);
    if (!chain) return viaApp(req, res);
    void koa.handleRequest(ctx, chain);
  };
}

/** What the direct path reads of a router. */
interface RouterShape {
  stack: RouteLayer[];
  opts?: { host?: unknown; exclusive?: unknown };
}

/** A route template's number of `/`, when every path it matches has as many (plus an optional trailing one); undefined otherwise. */
function fixedSlashes(template: string): number | undefined {
  if (/[*{}()?+\\]/.test(template) || template.endsWith('/')) return undefined;
  return slashes(template);
}

function slashes(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

/**
 * The first of `layers` (in order) whose method and path match, as
 * @koa/router tests them, testing only the layers that can match a path of
 * this many segments: a `:param` matches no `/`, so a template of literal
 * segments and parameters matches only paths with its number of `/` (one
 * more with the optional trailing slash); other templates are tested for
 * every path.
 */
function routeFinder(layers: RouteLayer[]): (method: string, path: string) => RouteLayer | undefined {
  const buckets = new Map<string, RouteLayer[]>();
  const counts = new Set(layers.map((layer) => fixedSlashes(layer.path)).filter((n): n is number => n !== undefined));
  const methods = new Set(layers.flatMap((layer) => layer.methods));
  for (const method of methods) {
    for (const count of counts) {
      buckets.set(`${method} ${count}`, layers.filter((layer) => layer.methods.includes(method) && (fixedSlashes(layer.path) ?? count) === count));
    }
  }
  const variable = new Map([...methods].map((method) => [method, layers.filter((layer) => layer.methods.includes(method) && fixedSlashes(layer.path) === undefined)]));
  return (method, path) => {
    const count = slashes(path) - (path.length > 1 && path.endsWith('/') ? 1 : 0);
    const candidates = buckets.get(`${method} ${count}`) ?? variable.get(method) ?? [];
    for (const layer of candidates) if (layer.match(path)) return layer;
    return undefined;
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
