import type { Middleware } from 'koa';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import { IDENTITY_HEADER } from '@tabula/auth';
import { requestRoute } from '@tabula/telemetry';
import { matchRoute } from './route-table';
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

/**
 * Routes a request by the route table, authenticates it, replaces any
 * client-sent identity with the gateway-signed one, and hands it over.
 */
export function dispatchMiddleware(deps: DispatchDeps): Middleware {
  return async (ctx) => {
    const rule = matchRoute(ctx.method, ctx.path);
    if (!rule) throw errors.notFound('ERR_NOT_FOUND', `Route ${ctx.method} ${ctx.path} not found`);
    const limit = rule.service === 'storage' ? deps.config.SVC_GATEWAY_MAX_UPLOAD_BYTES : deps.config.SVC_GATEWAY_MAX_BODY_BYTES;
    enforceBodyLimit(ctx.req, ctx.res, limit);
    const headers = ctx.req.headers;
    delete headers[IDENTITY_HEADER];
    const principal = await resolvePrincipal(deps, headers, rule.access === 'required');
    if (principal) headers[IDENTITY_HEADER] = deps.sign(principal);
    headers['x-request-id'] = ctx.state.requestId as string;
    headers[CLIENT_IP_HEADER] = ctx.ip;
    if (principal && SESSION_CHANGING.test(ctx.path)) {
      ctx.res.once('finish', () => {
        if (ctx.res.statusCode < 300) deps.authenticator.invalidate(principal.id);
      });
    }
    ctx.respond = false;
    await deps.dispatcher.dispatch(rule.service, ctx.req, ctx.res);
    // Metrics and the access line are labelled by the route template the service reported.
    ctx.state.routeTemplate = requestRoute(ctx.req) ?? `${rule.service}:unrouted`;
  };
}
