import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import type { Span } from '@opentelemetry/api';

/**
 * Response header in which a service tells the gateway (cluster mode) which of
 * its routes answered, e.g. `/api/v1/db/data/:orgs/:projectName/:tableName`.
 * The gateway reads and removes it, so clients never see it.
 */
export const ROUTE_TEMPLATE_HEADER = 'x-tabula-route';

const ROUTE_TEMPLATE = Symbol.for('tabula.routeTemplate');
const IN_PROCESS = Symbol.for('tabula.inProcessDispatch');
const SERVER_SPAN = Symbol.for('tabula.serverSpan');

/** The server span of a request and the HTTP instrumentation's RPC metadata (whose `route` it names the span by when it ends). */
interface ServerSpanRef { span: Span; rpc?: { route?: string } }

type Tagged = IncomingMessage & { [ROUTE_TEMPLATE]?: string; [IN_PROCESS]?: boolean; [SERVER_SPAN]?: ServerSpanRef };

/** Tracing: keeps the request's server span on the request (the HTTP instrumentation's request hook). */
export function attachServerSpan(req: IncomingMessage, span: Span, rpc: { route?: string } | undefined): void {
  (req as Tagged)[SERVER_SPAN] = { span, rpc };
}

/**
 * Names the request's server span `METHOD /route/template` (and its
 * `http.route`). The outermost handler of a request names it last, so an
 * in-process hand-over (standalone) or a nested in-process call cannot leave
 * an inner route on it. No-op without tracing, and once the span has ended
 * (the gateway's hand-over returns when the response has closed, and an
 * ended span answers every change with an Error built for a warning: two
 * stack traces per request).
 */
export function nameServerSpan(req: IncomingMessage, method: string, template: string): void {
  const ref = (req as Tagged)[SERVER_SPAN];
  if (!ref || !ref.span.isRecording()) return;
  if (ref.rpc) ref.rpc.route = template;
  ref.span.setAttribute('http.route', template);
  ref.span.updateName(`${method} ${template}`);
}

/** Standalone: marks a request the gateway hands to a service in this process (the gateway writes its access line). */
export function markInProcess(req: IncomingMessage): void {
  (req as Tagged)[IN_PROCESS] = true;
}

/** True for a request the gateway dispatched to this service in the same process. */
export function isInProcess(req: IncomingMessage): boolean {
  return (req as Tagged)[IN_PROCESS] === true;
}

/** Records on the request which route template answered it (read back by the gateway). */
export function setRequestRoute(req: IncomingMessage, template: string): void {
  (req as Tagged)[ROUTE_TEMPLATE] = template;
  nameServerSpan(req, req.method ?? 'GET', template);
}

/** The route template a service recorded on the request, if any. */
export function requestRoute(req: IncomingMessage): string | undefined {
  return (req as Tagged)[ROUTE_TEMPLATE];
}

/** The route template of a served request: set by the app (the gateway), else the router's matched layer. */
export function routeOf(ctx: Context): string | undefined {
  const fromState = ctx.state?.routeTemplate as string | undefined;
  return fromState ?? (ctx as unknown as { _matchedRoute?: string })._matchedRoute ?? requestRoute(ctx.req);
}

/** The status actually sent: a handler that wrote to `res` itself (the gateway's proxy) bypasses ctx.status. */
export function statusOf(ctx: Context): number {
  return ctx.respond === false ? ctx.res.statusCode : ctx.status;
}
