import { Agent, request as undiciRequest } from 'undici';
import { errors } from './app-error';
import { currentRequestContext } from './request-context';
import { classifyProxyError, proxyFailureError } from './upstream-error';
import { ServiceReplicas } from './replicas';
import { pathWithQuery, type ServiceClient, type ServiceName, type ServiceRequest, type ServiceResponse } from './service-client';

/**
 * Cluster mode: HTTP with keep-alive to each service's base URL (a Kubernetes
 * Service name in a cluster, 127.0.0.1:port under `npm run start:cluster`).
 * Trace context is added by the undici instrumentation.
 */
export class HttpServiceClient implements ServiceClient {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, connect: { timeout: 1_000 } });
  private readonly replicas: ServiceReplicas;

  /** `baseUrls`: one URL per service, or several comma-separated (its replicas, called in turn). */
  constructor(
    baseUrls: Partial<Record<ServiceName, string>>,
    private readonly identityHeader: () => string,
    private readonly timeoutMs = 30_000,
  ) {
    this.replicas = new ServiceReplicas(baseUrls);
  }

  async request<T>(service: ServiceName, request: ServiceRequest): Promise<ServiceResponse<T>> {
    const base = this.replicas.next(service);
    if (!base) throw errors.unavailable(`Service '${service}' has no address configured`);
    const headers: Record<string, string> = { 'x-tabula-identity': this.identityHeader(), ...(request.headers ?? {}) };
    const requestId = currentRequestContext()?.requestId;
    if (requestId) headers['x-request-id'] = requestId;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await undiciRequest(new URL(pathWithQuery(request), base), {
        method: request.method, headers, body, dispatcher: this.agent, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
    } catch (err) {
      if ((err as { name?: string }).name === 'SyntaxError') throw err;
      // 503 only when the service cannot be reached; the cause goes to the log with the request id.
      throw proxyFailureError(classifyProxyError(err), service, err);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
