import type { AnyEndpoint, EndpointInput, EndpointResponse, ServiceName } from '@tabula/contracts';
import { errorBody } from './app-error';
import { toAppError } from './error-middleware';
import type { ServiceClient, ServiceRequest, ServiceResponse } from './service-client';

/** An in-memory implementation of some of a contract record's endpoints. */
export type EndpointImplementation<M extends Record<string, AnyEndpoint>> = {
  [K in keyof M]?: (input: EndpointInput<M[K]>) => Promise<EndpointResponse<M[K]>> | EndpointResponse<M[K]>;
};

interface Entry {
  endpoint: AnyEndpoint;
  pattern: RegExp;
  names: string[];
  handler: (input: EndpointInput<AnyEndpoint>) => unknown;
}

function patternOf(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.split(/(\{[A-Za-z0-9_]+\})/).map((part) => {
    const m = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
    if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(m[1]);
    return '([^/]+)';
  }).join('');
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * A {@link ServiceClient} answering from typed in-memory implementations of
 * other services' contracts (test fakes): the request is matched to its
 * endpoint by the contract's method and path, its input parsed with the
 * contract's schemas, and a thrown AppError answered with its status and body.
 */
export class InMemoryServices implements ServiceClient {
  private readonly entries = new Map<ServiceName, Entry[]>();
  /** Calls answered, by operation id. */
  readonly calls = new Map<string, number>();

  /** Adds implementations of some endpoints of a contract record. */
  implement<M extends Record<string, AnyEndpoint>>(endpoints: M, implementation: EndpointImplementation<M>): this {
    for (const [name, handler] of Object.entries(implementation)) {
      if (!handler) continue;
      const endpoint = endpoints[name];
      const list = this.entries.get(endpoint.service) ?? [];
      list.push({ endpoint, ...patternOf(endpoint.path), handler: handler as Entry['handler'] });
      this.entries.set(endpoint.service, list);
    }
    return this;
  }

  async request<T>(service: ServiceName, req: ServiceRequest): Promise<ServiceResponse<T>> {
    for (const entry of this.entries.get(service) ?? []) {
      if (entry.endpoint.method !== req.method) continue;
      const match = entry.pattern.exec(req.path);
      if (!match) continue;
      this.calls.set(entry.endpoint.id, (this.calls.get(entry.endpoint.id) ?? 0) + 1);
      return this.answer<T>(entry, Object.fromEntries(entry.names.map((n, i) => [n, decodeURIComponent(match[i + 1])])), req);
    }
    return { status: 404, body: { error: 'ERR_NOT_FOUND', message: `No fake for ${service} ${req.method} ${req.path}` } as T };
  }

  private async answer<T>(entry: Entry, params: Record<string, string>, req: ServiceRequest): Promise<ServiceResponse<T>> {
    const { endpoint } = entry;
    try {
      const input = {
        params: endpoint.params ? endpoint.params.parse(params) : undefined,
        query: endpoint.query ? endpoint.query.parse(req.query ?? {}) : undefined,
        body: endpoint.body ? endpoint.body.parse(req.body ?? {}) : undefined,
      } as EndpointInput<AnyEndpoint>;
      const body = await entry.handler(input);
      return { status: endpoint.status ?? 200, body: JSON.parse(JSON.stringify(body ?? null)) as T };
    } catch (err) {
      const appError = toAppError(err, []);
      return { status: appError.status, body: errorBody(appError) as T };
    }
  }
}
