import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import { aliasesOf, routerPath, type AnyEndpoint, type EndpointInput, type EndpointResponse } from '@tabula/contracts';
import { admitCallers, authorizeInput, authorizerOf } from './access-guard';

/** The context of a contract route: the validated, typed input is on `ctx.input`. */
export type EndpointContext<E extends AnyEndpoint> = RouterContext & { input: EndpointInput<E> };

/**
 * A response body already serialized to JSON text (a hot path that made the
 * text once for another use, e.g. the records event). The route sends it as is:
 * one string, or pieces that concatenate to the text (sent one after the
 * other, see {@link piecesBody}, never joined).
 */
export class RawJson {
  constructor(readonly text: string | readonly string[]) {}
}

/**
 * A body of JSON pieces: each piece becomes its own Buffer (a small heap
 * allocation: joining them would make one string over V8's 128 kB
 * large-object threshold, whose pages are mapped fresh each time, and writing
 * a string copies it into one more buffer of its whole size), streamed one
 * after the other with the socket's backpressure (a few writes for a bulk
 * answer). Answers the body and its length in bytes (sent as Content-Length).
 */
export function piecesBody(pieces: readonly string[]): { body: Readable; length: number } {
  const buffers = pieces.map((piece) => Buffer.from(piece));
  return { body: Readable.from(buffers, { objectMode: false }), length: buffers.reduce((sum, b) => sum + b.length, 0) };
}

/** A contract route's handler: returns the response body (typed by the contract) or its JSON text. */
export type EndpointHandler<E extends AnyEndpoint> = (ctx: EndpointContext<E>) => Promise<EndpointResponse<E> | RawJson> | EndpointResponse<E> | RawJson;

/**
 * A query whose `key[]` parameters are read as `key` (repeated): axios, and so
 * nocodb-sdk, sends an array as `fields[]=a&fields[]=b`, which NocoDB (qs)
 * reads as `fields=a&fields=b`. A key given both ways keeps every value.
 */
export function bracketArrays(query: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(query);
  if (!keys.some((k) => k.endsWith('[]'))) return query;
  const out: Record<string, unknown> = {};
  const values = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
  for (const key of keys) {
    const name = key.endsWith('[]') && key.length > 2 ? key.slice(0, -2) : key;
    const merged = name in out ? [...values(out[name]), ...values(query[key])] : query[key];
    out[name] = key !== name && !Array.isArray(merged) ? [merged] : merged;
  }
  return out;
}

/**
 * Parses params, query and body with the endpoint's zod schemas and puts them
 * on `ctx.input`; a failure throws a ZodError that the error middleware turns
 * into 400 naming the field.
 */
export function validateEndpoint(endpoint: AnyEndpoint): Middleware {
  // Not async (one promise fewer per request): a ZodError thrown here rejects the caller's `next()` all the same.
  return (ctx, next) => {
    const params = (ctx as unknown as { params?: Record<string, string> }).params ?? {};
    // Body first, then query, then params: the first failure named is the one `validate` named.
    const body = endpoint.body ? endpoint.body.parse(ctx.request.body ?? {}) : undefined;
    const query = endpoint.query ? endpoint.query.parse(bracketArrays(ctx.query)) : undefined;
    (ctx as unknown as { input: unknown }).input = { params: endpoint.params ? endpoint.params.parse(params) : undefined, query, body };
    return next();
  };
}

/**
 * Registers a contract on a router: `admit callers -> [middleware] -> validate
 * -> authorize -> handler`, the guard coming from the contract's `auth`
 * declaration alone (no guard is written beside a route). An endpoint that
 * declares a permission or scope needs a router built by `guardedRouter`
 * with an authorizer that resolves its scope; registering it elsewhere throws
 * at start-up. The handler's return value is the body; the status is the
 * contract's. The contract's aliases (`aliasOf`) are served by the same handler. The route reads like its spec: `route(router, commentCreate, handler)`.
 */
export function route<E extends AnyEndpoint>(router: Router, endpoint: E, ...stack: [...Middleware[], EndpointHandler<E>]): Router {
  const handler = stack.pop() as EndpointHandler<E>;
  const middleware = stack as Middleware[];
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
  const final: Middleware = async (ctx) => {
    const result = await handler(ctx as EndpointContext<E>);
    if (endpoint.status === 204) { ctx.status = 204; return; }
    if (result instanceof RawJson) {
      ctx.type = 'json';
      if (typeof result.text === 'string') {
        ctx.body = result.text;
      } else if (result.text.length === 1) {
        ctx.body = result.text[0];
      } else {
        const { body, length } = piecesBody(result.text);
        ctx.body = body;
        ctx.length = length;
      }
    } else if (result === null) {
      // Koa turns a null body into 204; a JSON null answer is sent as text.
      ctx.type = 'json';
      ctx.body = 'null';
    } else {
      ctx.body = result;
    }
    ctx.status = endpoint.status ?? 200;
  };
  // The contract's other paths (aliasOf: NocoDB's v2 spelling of a v1 path) share its handler, each behind its own guard.
  for (const e of [endpoint, ...aliasesOf(endpoint)]) router[method](e.id, routerPath(e.path), oneLayer([...contractGuard(router, e, middleware), final]));
  return router;
}

/**
 * A route's guard and handler as one router layer, run in order as Koa would
 * compose them: the router instrumentation then traces a route as one span
 * named by its contract (not one nested span per guard step), and the router
 * dispatches one function instead of several.
 */
function oneLayer(layers: Middleware[]): Middleware {
  const run = (ctx: Parameters<Middleware>[0], next: () => Promise<unknown>, i: number): Promise<unknown> => {
    if (i === layers.length) return next();
    return Promise.resolve(layers[i](ctx, () => run(ctx, next, i + 1)));
  };
  return (ctx, next) => run(ctx, next, 0);
}

/**
 * The guard of a contract, from its `auth` declaration alone: `admit callers
 * -> [middleware] -> validate -> authorize` (the last only when it declares a
 * permission or scope, which needs a router built by `guardedRouter`; else
 * this throws at start-up). {@link route} installs it; a route that answers
 * with its own stream and status (file downloads, rest-of-path parameters)
 * registers it on the router itself, in front of its handler.
 */
export function contractGuard(router: Router, endpoint: AnyEndpoint, middleware: Middleware[] = []): Middleware[] {
  const guard: Middleware[] = [admitCallers(endpoint), ...middleware, validateEndpoint(endpoint)];
  if (endpoint.auth.permission || endpoint.auth.scope) {
    const authorizer = authorizerOf(router);
    if (!authorizer) throw new Error(`endpoint ${endpoint.id} declares a permission: register it on a guardedRouter`);
    authorizer.check(endpoint);
    guard.push(authorizeInput(endpoint, authorizer));
  }
  return guard;
}
