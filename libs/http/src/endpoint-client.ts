import { fillPath, type AnyEndpoint, type EndpointCall, type EndpointResponse } from '@tabula/contracts';
import { AppError, appError } from './app-error';
import type { ServiceClient } from './service-client';

/**
 * Calls another service's endpoint through its contract: the path is filled
 * from params, the answer is parsed with the response schema, and an error
 * answer is rethrown as the AppError the callee sent (same status and code).
 */
export async function callEndpoint<E extends AnyEndpoint>(
  services: ServiceClient, endpoint: E, call: EndpointCall<E>, headers?: Record<string, string>,
): Promise<EndpointResponse<E>> {
  const c = call as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  const query: Record<string, string | number | boolean | undefined> = {};
  for (const [k, v] of Object.entries(c.query ?? {})) {
    if (v === undefined || v === null) continue;
    query[k] = Array.isArray(v) ? v.join(',') : (v as string | number | boolean);
  }
  const res = await services.request<unknown>(endpoint.service, {
    method: endpoint.method, path: fillPath(endpoint.path, c.params), query, body: c.body, headers,
  });
  if (res.status >= 400) {
    const body = (res.body ?? {}) as { error?: string; message?: string; details?: unknown };
    throw new AppError(res.status, body.error ?? 'ERR_UPSTREAM', body.message ?? `${endpoint.service} answered ${res.status}`, body.details);
  }
  const parsed = endpoint.response.safeParse(res.body);
  if (!parsed.success) {
    throw appError('ERR_BAD_UPSTREAM_RESPONSE', `${endpoint.service} answered ${endpoint.id} with an unexpected body`);
  }
  return parsed.data as EndpointResponse<E>;
}

/** A typed client: one method per endpoint of a record of contracts. */
export type EndpointClient<M extends Record<string, AnyEndpoint>> = {
  [K in keyof M]: (call: EndpointCall<M[K]>, headers?: Record<string, string>) => Promise<EndpointResponse<M[K]>>;
};

/** Builds a typed client of a service from its contracts (e.g. `clientOf(services, metaInternal)`). */
export function clientOf<M extends Record<string, AnyEndpoint>>(services: ServiceClient, endpoints: M): EndpointClient<M> {
  const client = {} as Record<string, unknown>;
  for (const [name, endpoint] of Object.entries(endpoints)) {
    client[name] = (call: EndpointCall<AnyEndpoint>, headers?: Record<string, string>) => callEndpoint(services, endpoint, call, headers);
  }
  return client as EndpointClient<M>;
}
