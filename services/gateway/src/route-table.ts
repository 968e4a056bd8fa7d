import type { ServiceName } from '@tabula/http';

/** How a route is authenticated at the gateway. */
export type Access = 'required' | 'public';

/** One row of the route table: a path pattern (and methods), its service and access. */
export interface RouteRule {
  pattern: RegExp;
  service: ServiceName;
  access: Access;
  methods?: string[];
}

const r = (pattern: RegExp, service: ServiceName, access: Access = 'required', methods?: string[]): RouteRule => ({ pattern, service, access, methods });

/**
 * The one table mapping the spec's paths to services, first match wins (so the
 * specific hook/comment/member paths come before the general meta prefix).
 */
export const ROUTE_TABLE: RouteRule[] = [
  r(/^\/api\/v[12]\/auth\/user\/(signup|signin)\/?$/, 'auth', 'public', ['POST']),
  r(/^\/api\/v[12]\/auth\/token\/refresh\/?$/, 'auth', 'public', ['POST']),
  r(/^\/api\/v[12]\/auth\/password\/(forgot|reset\/[^/]+)\/?$/, 'auth', 'public', ['POST']),
  r(/^\/api\/v[12]\/auth\//, 'auth'),
  r(/^\/api\/v1\/tokens(\/|$)/, 'auth'),
  r(/^\/api\/v1\/db\/meta\/projects\/[^/]+\/(users|api-tokens)(\/|$)/, 'auth'),
  r(/^\/api\/v1\/db\/meta\/(comments|comment)(\/|$)/, 'comments'),
  r(/^\/api\/v2\/tables\/[^/]+\/records\/[^/]+\/comments(\/|$)/, 'comments'),
  r(/^\/api\/v2\/comments(\/|$)/, 'comments'),
  r(/^\/api\/v1\/db\/storage\//, 'storage'),
  r(/^\/api\/v2\/downloadAttachment\//, 'storage'),
  r(/^\/(download|dltemp)\//, 'storage', 'public', ['GET', 'HEAD']),
  r(/^\/api\/v2\/(meta\/)?integrations(\/|$)/, 'integrations'),
  r(/^\/api\/v1\/db\/meta\/tables\/[^/]+\/hooks(\/|$)/, 'hooks'),
  r(/^\/api\/v1\/db\/meta\/hooks\//, 'hooks'),
  r(/^\/api\/v2\/meta\/hooks\//, 'hooks'),
  r(/^\/api\/v1\/db\/data\//, 'data'),
  r(/^\/api\/v1\/db\/meta\/projects\/[^/]+\/swagger\/?$/, 'meta', 'public', ['GET']),
  r(/^\/api\/v1\/db\/meta\//, 'meta'),
];

/** Finds the rule for a request, or undefined (404). */
export function matchRoute(method: string, path: string): RouteRule | undefined {
  return ROUTE_TABLE.find((rule) => rule.pattern.test(path) && (!rule.methods || rule.methods.includes(method)))
    ?? ROUTE_TABLE.find((rule) => rule.pattern.test(path) && rule.access === 'required');
}
