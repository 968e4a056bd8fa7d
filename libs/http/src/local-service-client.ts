import inject from 'light-my-request';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from './app-error';
import { currentRequestContext } from './request-context';
import { pathWithQuery, type ServiceClient, type ServiceName, type ServiceRequest, type ServiceResponse } from './service-client';

/** A Node request handler, e.g. `koaApp.callback()`. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Standalone mode: services live in this process; a call is dispatched straight
 * into the target app's handler (no socket), with the same headers an HTTP call carries.
 */
export class LocalServiceClient implements ServiceClient {
  private readonly handlers = new Map<ServiceName, RequestHandler>();

  constructor(private readonly identityHeader: () => string) {}

  /** Registers a service's handler once its app is built. */
  register(service: ServiceName, handler: RequestHandler): void {
    this.handlers.set(service, handler);
  }

  /** The registered handler of a service, if it runs in this process. */
  handlerOf(service: ServiceName): RequestHandler | undefined {
    return this.handlers.get(service);
  }

  async request<T>(service: ServiceName, request: ServiceRequest): Promise<ServiceResponse<T>> {
    const handler = this.handlers.get(service);
    if (!handler) throw errors.unavailable(`Service '${service}' is unavailable`);
    const headers: Record<string, string> = { 'x-tabula-identity': this.identityHeader(), ...(request.headers ?? {}) };
    const requestId = currentRequestContext()?.requestId;
    if (requestId) headers['x-request-id'] = requestId;
    const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const res = await inject(handler as never, { method: request.method, url: pathWithQuery(request), headers, payload });
    const text = res.payload;
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  }
}
