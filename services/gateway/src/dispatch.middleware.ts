import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import { IDENTITY_HEADER } from '@tabula/auth';
import { requestRoute } from '@tabula/telemetry';
import { matchRoute, type RouteRule } from './route-table';
import { enforceBodyLimit } from './body-limit';
import { readCredential } from './credentials';
import type { Authenticator } from './authenticator';
import type { Dispatcher } from './dispatcher';
import type { GatewayConfig } from './config';

/** Header with the client's address as the gateway saw it (rate limits). */
export const CLIENT_IP_HEADER = 'x-tabula-client-ip';

/** Requests after whose success the caller's cached principal must go at once. */
const SESSION_CHANGING = /^\/api\/v[12]\/(auth\/user\/signout|auth\/password\/change|tokens\/[^/]+)\/?$|\/api-tokens\/[^/]+\/?$/;

export interface DispatchDeps {
  authenticator: Authenticator;
  dispatcher: Dispatcher;
  sign: (principal: Principal) => string;
  config: GatewayConfig;
}

async function resolvePrincipal(deps: DispatchDeps, headers: Parameters<typeof readCredential>[0], required: boolean): Promise<Principal | undefined> {
  const credential = readCredential(headers);
  if (!credential) {
    if (required) throw errors.unauthorized();
    return undefined;
  }
  try {
    return await deps.authenticator.authenticate(credential);
  } catch (err) {
    if (required) throw err;
    return undefined;
  }
}

/** True when the query carries a non-empty `ticket`. */
export function hasTicket(url: string | undefined): boolean {
  const query = url?.indexOf('?') ?? -1;
  return query >= 0 && !!new URLSearchParams((url as string).slice(query + 1)).get('ticket');
}

/**
 * Routes a request by the route table, authenticates it, replaces any
 * client-sent identity with the gateway-signed one, and hands it over.
 */
export function dispatchMiddleware(deps: DispatchDeps): Middleware {
  return async (ctx) => {
    const edge = { path: ctx.path, requestId: ctx.state.requestId as string, ip: ctx.ip };
    // Metrics and the access line are labelled by the route template the service reported.
    ctx.state.routeTemplate = await dispatchRequest(deps, ctx.req, ctx.res, edge, () => { ctx.respond = false; });
  };
}

/** A request as the gateway has read it: its path, request id and client address. */
export interface EdgeRequest {
  path: string;
  requestId: string;
  ip: string;
}

/**
 * What {@link dispatchMiddleware} does, on the bare request: throws the 404,
 * 401 or 413 it refuses with before anything is written; calls `onHandOver`
 * just before the service takes the response over; answers the route
 * template of the answered request once the service has answered it.
 * `matched`: the route table's rule for this request when the caller
 * looked it up already (the edge handler), so it is matched once.
 */
export async function dispatchRequest(
  deps: DispatchDeps, req: IncomingMessage, res: ServerResponse, edge: EdgeRequest, onHandOver?: () => void,
  matched?: RouteRule,
): Promise<string> {
  const method = req.method ?? 'GET';
  const rule = matched ?? matchRoute(method, edge.path);
  if (!rule) throw errors.notFound('ERR_NOT_FOUND', `Route ${method} ${edge.path} not found`);
  const limit = rule.service === 'storage' ? deps.config.SVC_GATEWAY_MAX_UPLOAD_BYTES : deps.config.SVC_GATEWAY_MAX_BODY_BYTES;
  enforceBodyLimit(req, res, limit);
  const principal = await admit(deps, req, rule, edge);
  if (principal && SESSION_CHANGING.test(edge.path)) {
    res.once('finish', () => {
      if (res.statusCode < 300) deps.authenticator.invalidate(principal.id);
    });
  }
  onHandOver?.();
  await deps.dispatcher.dispatch(rule.service, req, res, { stream: rule.endpoint?.transport === 'stream' });
  return requestRoute(req) ?? `${rule.service}:unrouted`;
}

/**
 * Authenticates a request by its route's contract and puts the gateway-signed
 * identity (never a client-sent one), the request id and the client address
 * on it. A contract declaring `auth.ticket` admits a request carrying
 * `?ticket=` without credentials (EventSource and browsers' WebSocket send no
 * headers): the owning service redeems the ticket. Throws 401 when
 * credentials are required and missing or refused.
 */
export async function admit(deps: DispatchDeps, req: IncomingMessage, rule: RouteRule, edge: EdgeRequest): Promise<Principal | undefined> {
  const headers = req.headers;
  delete headers[IDENTITY_HEADER];
  const byTicket = rule.endpoint?.auth.ticket === true && hasTicket(req.url);
  const principal = await resolvePrincipal(deps, headers, rule.access === 'required' && !byTicket);
  if (principal) headers[IDENTITY_HEADER] = deps.sign(principal);
  headers['x-request-id'] = edge.requestId;
  headers[CLIENT_IP_HEADER] = edge.ip;
  return principal;
}
