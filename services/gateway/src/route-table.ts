import { allEndpoints, pathParamNames, type AnyEndpoint } from '@tabula/contracts';
import type { ServiceName } from '@tabula/http';

/** How a route is authenticated at the gateway. */
export type Access = 'required' | 'public';

/** Where a request goes: the service that serves its path, and whether credentials are required. */
export interface RouteRule {
  service: ServiceName;
  access: Access;
  /** The contract answering this method on this path (none: the service answers 405). */
  endpoint?: AnyEndpoint;
}

interface Node {
  literal: Map<string, Node>;
  param?: Node;
  /** A last parameter that takes the rest of the path, slashes included (`/download/{path}`). */
  rest?: Node;
  /** Contracts ending here, by method. */
  endpoints?: Map<string, AnyEndpoint>;
  service?: ServiceName;
}

const node = (): Node => ({ literal: new Map() });

/** Paths whose last parameter spans several segments (object keys, signed tokens). */
const REST_PATHS = new Set(['/download/{path}', '/dltemp/{token}']);

function insert(root: Node, endpoint: AnyEndpoint): void {
  const segments = endpoint.path.split('/').slice(1);
  const last = segments.length - 1;
  let at = root;
  segments.forEach((segment, i) => {
    const isParam = /^\{[A-Za-z0-9_]+\}$/.test(segment);
    if (isParam && i === last && REST_PATHS.has(endpoint.path)) at = at.rest ??= node();
    else if (isParam) at = at.param ??= node();
    else {
      if (!at.literal.has(segment)) at.literal.set(segment, node());
      at = at.literal.get(segment)!;
    }
  });
  if (at.service && at.service !== endpoint.service) {
    throw new Error(`route table: ${endpoint.path} is served by both ${at.service} and ${endpoint.service}`);
  }
  at.service = endpoint.service;
  (at.endpoints ??= new Map()).set(endpoint.method, endpoint);
}

/** Literal segments first, then a parameter, then a rest parameter; backtracks, so the most specific contract wins. */
function find(at: Node, segments: string[], i: number): Node | undefined {
  if (i === segments.length) return at.service ? at : undefined;
  const segment = segments[i];
  const literal = at.literal.get(segment);
  const viaLiteral = literal && find(literal, segments, i + 1);
  if (viaLiteral) return viaLiteral;
  const viaParam = segment !== '' && at.param ? find(at.param, segments, i + 1) : undefined;
  if (viaParam) return viaParam;
  return segment !== '' && at.rest?.service ? at.rest : undefined;
}

/**
 * The gateway's routing table, generated from the contracts: every public
 * contract's path, served by the contract's service (the gateway's own
 * endpoints and `/internal/...` ones are never dispatched). Built once.
 */
export function buildRouteTable(endpoints: readonly AnyEndpoint[]): (method: string, path: string) => RouteRule | undefined {
  const root = node();
  for (const endpoint of endpoints) {
    if (endpoint.access === 'internal' || endpoint.service === 'gateway') continue;
    if (pathParamNames(endpoint.path).length === 0 && !endpoint.path.startsWith('/')) throw new Error(`route table: bad path ${endpoint.path}`);
    insert(root, endpoint);
  }
  return (method, path) => {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const found = find(root, trimmed.split('/').slice(1), 0);
    if (!found?.service) return undefined;
    const endpoint = found.endpoints?.get(method === 'HEAD' ? 'GET' : method);
    // A method no contract answers still goes to the service (its 405 names the allowed ones), authenticated.
    return { service: found.service, access: endpoint?.access === 'public' ? 'public' : 'required', endpoint };
  };
}

let table: ReturnType<typeof buildRouteTable> | undefined;

/** Finds the rule for a request, or undefined (404). */
export function matchRoute(method: string, path: string): RouteRule | undefined {
  table ??= buildRouteTable(allEndpoints());
  return table(method, path);
}
