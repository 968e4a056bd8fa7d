/**
 * The typed client of libs/contracts in the browser: `call(endpoint, input)`
 * takes the method and path from the endpoint's contract (path parameters
 * filled by the contract library's `fillPath`), and TypeScript checks the
 * input (params, query, body) and the answer against the contract's schemas:
 * a contract whose path parameters or shapes change breaks the app's
 * typecheck, and a path change reaches the app with the next build.
 *
 * In the bundle a contract module is only its routes (`{ id, method, path }`
 * per endpoint; contract-routes.ts, a Vite plugin): answers are not validated
 * in the browser. Validating would ship zod and every schema (~100 kB gzip,
 * more than the app itself) to re-check answers of a server that produces
 * them from the same contracts; a wrong shape would still only be an error
 * message to the user. The types keep the app honest at build time instead.
 */
import { fillPath, type AnyEndpoint, type EndpointCall, type EndpointResponse } from '../../../libs/contracts/src/endpoint/define-endpoint';
import { api, withQuery, type Query } from './request';

/** What the client reads of an endpoint at run time (all a contract module holds in the bundle). */
type Route = Pick<AnyEndpoint, 'id' | 'method' | 'path'>;

/** Calls an endpoint of libs/contracts; errors are ApiError with the server's message. */
export function call<E extends AnyEndpoint>(endpoint: E, input: EndpointCall<E>, options: { form?: FormData } = {}): Promise<EndpointResponse<E>> {
  const route: Route = endpoint;
  const { params, query, body } = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return api<EndpointResponse<E>>(route.method, fillPath(route.path, params), { query: queryOf(query), body, form: options.form });
}

/** The URL of a call that is no fetch (an EventSource's stream), checked like a call. */
export function urlOf<E extends AnyEndpoint>(endpoint: E, input: EndpointCall<E>): string {
  const route: Route = endpoint;
  const { params, query } = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return withQuery(fillPath(route.path, params), queryOf(query));
}

/** Query values as the API reads them: lists comma-separated, empty ones left out. */
function queryOf(query: Record<string, unknown> | undefined): Query | undefined {
  if (!query) return undefined;
  const out: Query = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return out;
}
