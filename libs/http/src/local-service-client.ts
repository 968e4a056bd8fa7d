import inject from 'light-my-request';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors } from './app-error';
import { currentRequestContext } from './request-context';
import { pathWithQuery, type ServiceClient, type ServiceName, type ServiceRequest, type ServiceResponse } from './service-client';

/** A Node request handler, e.g. `koaApp.callback()` (whose promise settles when the app is done with the request). */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<unknown>;

/** A Node `upgrade` listener: an HTTP Upgrade (WebSocket) request and its raw socket. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Standalone mode: services live in this process; a call is dispatched straight
 * into the target app's handler (no socket), with the same headers an HTTP call carries.
 */
export class LocalServiceClient implements ServiceClient {
  private readonly handlers = new Map<ServiceName, RequestHandler>();
  private readonly upgrades = new Map<ServiceName, UpgradeHandler>();

  constructor(private readonly identityHeader: () => string) {}

  /** Registers a service's handler once its app is built (and its Upgrade handler, when it serves WebSockets). */
  register(service: ServiceName, handler: RequestHandler, upgrade?: UpgradeHandler): void {
    this.handlers.set(service, handler);
    if (upgrade) this.upgrades.set(service, upgrade);
  }

  /** The registered Upgrade handler of a service, if it runs in this process and serves WebSockets. */
  upgradeOf(service: ServiceName): UpgradeHandler | undefined {
    return this.upgrades.get(service);
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
