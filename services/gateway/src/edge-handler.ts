import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { CidrList, requestIdFrom, toAppError } from '@tabula/http';
import { nameServerSpan, withLogFields, writeAccessLine } from '@tabula/telemetry';
import type { GatewayPorts } from './ports';
import { matchRoute, type RouteRule } from './route-table';
import { applyClientAddress, guardPath } from './edge.middleware';
import { dispatchRequest, type DispatchDeps } from './dispatch.middleware';
import { CORS_EXPOSE_HEADERS } from './app';
import { sendError } from './error-response';

const EXPOSE = CORS_EXPOSE_HEADERS.join(',');

/**
 * The gateway's request handler. A request the route table sends to a service
 * — the API traffic — takes a direct path that does what the Koa app's stack
 * does for it, without building a Koa context and running fourteen
 * middleware layers around the hand-over: request id and log fields, client
 * address and forwarded headers, the path guard, route table, body limit,
 * authentication and identity (dispatchRequest, shared with the Koa
 * app), then the access line and the request-duration metric, and refusals
 * as the same JSON errors. Everything else goes to the Koa app: the
 * gateway's own routes and probes, CORS (any request with an `Origin`
 * header, and preflights), so their behaviour has one implementation.
 * `SVC_GATEWAY_DIRECT_PATH=false` sends everything through the Koa app (the
 * equivalence test compares both, response by response).
 */
export function edgeHandler(app: Koa, ports: GatewayPorts): RequestListener {
  const koa = app.callback();
  if (!ports.config.SVC_GATEWAY_DIRECT_PATH) return koa;
  const trusted = new CidrList(ports.config.SVC_TRUSTED_PROXIES);
  const deps: DispatchDeps = { authenticator: ports.authenticator, dispatcher: ports.dispatcher, sign: ports.sign, config: ports.config };
  const accessLog = ports.platform.SVC_ACCESS_LOG;
  return (req, res) => {
    const path = pathOf(req);
    const rule = path === undefined || req.method === 'OPTIONS' || req.headers.origin !== undefined ? undefined : matchRoute(req.method ?? 'GET', path);
    if (path === undefined || !rule) {
      void koa(req, res);
      return;
    }
    const requestId = requestIdFrom(headerOf(req, 'x-request-id'));
    res.setHeader('x-request-id', requestId);
    void withLogFields({ request_id: requestId }, () => handOver(req, res, path, requestId, rule));
  };

  async function handOver(req: IncomingMessage, res: ServerResponse, path: string, requestId: string, rule: RouteRule): Promise<void> {
    const started = process.hrtime.bigint();
    ports.metrics.httpInFlight.inc();
    let route = 'unmatched';
    let handedOver = false;
    try {
      guardPath(req, path);
      const ip = applyClientAddress(req, trusted);
      // What the CORS middleware sets on a request without `Origin` (after the path guard, as there).
      res.setHeader('vary', 'Origin');
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-expose-headers', EXPOSE);
      route = await dispatchRequest(deps, req, res, { path, requestId, ip }, () => { handedOver = true; }, rule);
    } catch (err) {
      const error = toAppError(err, []);
      if (handedOver || res.headersSent) {
        ports.logger.warn({ err, requestId }, 'error after the response started');
      } else {
        if (error.status >= 500) ports.logger.error({ err, requestId }, 'request failed');
        sendError(res, error);
      }
    } finally {
      ports.metrics.httpInFlight.dec();
      const status = res.statusCode;
      if (route !== 'unmatched') nameServerSpan(req, req.method ?? 'GET', route);
      ports.metrics.httpDuration.observeRoute(req.method ?? 'GET', route, String(status), Number(process.hrtime.bigint() - started) / 1e9);
      if (accessLog) writeAccessLine(ports.logger, { method: req.method ?? 'GET', path, route, status, started });
    }
  }
}

/** The path of an origin-form target as Koa reads it (`ctx.path`); undefined for any other target (the Koa app refuses it). */
function pathOf(req: IncomingMessage): string | undefined {
  const url = req.url ?? '/';
  if (!url.startsWith('/')) return undefined;
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
