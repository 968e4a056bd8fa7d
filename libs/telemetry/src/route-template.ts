import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';

/**
 * Response header in which a service tells the gateway (cluster mode) which of
 * its routes answered, e.g. `/api/v1/db/data/:orgs/:projectName/:tableName`.
 * The gateway reads and removes it, so clients never see it.
 */
export const ROUTE_TEMPLATE_HEADER = 'x-tabula-route';

const ROUTE_TEMPLATE = Symbol.for('tabula.routeTemplate');
const IN_PROCESS = Symbol.for('tabula.inProcessDispatch');

type Tagged = IncomingMessage & { [ROUTE_TEMPLATE]?: string; [IN_PROCESS]?: boolean };

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
