import type { ServiceName } from '@tabula/contracts';

export { SERVICE_NAMES, type ServiceName } from '@tabula/contracts';

/** A call to another service's `/internal/...` API. */
export interface ServiceRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ServiceResponse<T = unknown> {
  status: number;
  body: T;
}

/**
 * How a service reaches another one. Standalone: dispatch into the other app in
 * the same process. Cluster: HTTP with keep-alive to the service's address.
 * The caller never knows which.
 */
export interface ServiceClient {
  request<T = unknown>(service: ServiceName, request: ServiceRequest): Promise<ServiceResponse<T>>;
}

/** Builds the path plus query string of a request. */
export function pathWithQuery(request: ServiceRequest): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${request.path}?${qs}` : request.path;
}
