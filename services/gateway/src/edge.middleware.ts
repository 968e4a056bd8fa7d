import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { appError, CidrList, clientAddressOf, errors } from '@tabula/http';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

/**
 * Sets the client's address (`ctx.ip`) from the peer, believing forwarded
 * headers only from a trusted proxy (`SVC_TRUSTED_PROXIES`). From anyone
 * else they are dropped, so services behind the gateway never read a
 * client-written `X-Forwarded-*`; the gateway writes its own (`-For`,
 * `-Proto`, and `-Host`: the request's Host).
 */
export function clientAddressMiddleware(trusted: CidrList): Middleware {
  return async (ctx, next) => {
    ctx.request.ip = applyClientAddress(ctx.req, trusted);
    await next();
  };
}

/** What {@link clientAddressMiddleware} does to a request: rewrites its forwarded headers; answers the client's address. */
export function applyClientAddress(req: IncomingMessage, trusted: CidrList): string {
  const headers = req.headers;
  const peer = req.socket.remoteAddress;
  const fromProxy = trusted.has(peer);
  const forwarded = headers['x-forwarded-for'];
  const client = clientAddressOf(peer, (Array.isArray(forwarded) ? forwarded.join(',') : forwarded) || undefined, trusted);
  if (!fromProxy) {
    for (const name of FORWARDED) delete headers[name];
    headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    // The host the client asked (the proxy sends the service its own): links a service answers (v3 `next`) name it.
    if (headers.host) headers['x-forwarded-host'] = headers.host;
  }
  headers['x-forwarded-for'] = client;
  return client;
}

/** A path segment that is `.` or `..`, written raw or percent-encoded (any case), or a backslash. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)|\\|%5c/i;
/** `/internal` in any spelling a proxy or a service could end up routing. */
const INTERNAL = /^\/+(internal|%69nternal)(\/|$)/i;

function decodedPath(raw: string): string {
  try { return decodeURIComponent(raw); } catch { return raw; }
}

/**
 * Refuses paths with dot segments (raw or encoded: a proxy or URL parser
 * would normalise them towards another route) with 400, and any public
 * request to `/internal/...` with 404. A target that is not a path
 * (absolute-form `GET http://host/...`) is 400 too: the guards below read the
 * raw target, and a proxy would send such a request to that host.
 */
export function pathGuardMiddleware(): Middleware {
  return async (ctx, next) => {
    guardPath(ctx.req, ctx.path);
    await next();
  };
}

/** The checks of {@link pathGuardMiddleware}: throws the 400 or 404 it answers (`path`: the request's path, as Koa parses it). */
export function guardPath(req: IncomingMessage, path: string): void {
  const raw = (req.url ?? '/').split('?')[0];
  if (!raw.startsWith('/')) throw appError('ERR_INVALID_PATH', 'Request target must be a path');
  if (DOT_SEGMENT.test(raw) || DOT_SEGMENT.test(decodedPath(raw))) {
    throw appError('ERR_INVALID_PATH', 'Paths may not contain dot segments');
  }
  if (INTERNAL.test(raw) || INTERNAL.test(decodedPath(raw))) throw errors.notFound('ERR_NOT_FOUND', `Route ${req.method} ${path} not found`);
}
