import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Agent } from 'undici';
import type { RequestHandler, ServiceName, UpgradeHandler } from '@tabula/http';
import { appError, classifyProxyError, errors, proxyFailureError, refuseUpgrade, ServiceReplicas } from '@tabula/http';
import { markInProcess, type Logger } from '@tabula/telemetry';
import { HOP_BY_HOP, ProxyHandler } from './proxy-handler';
import { sendError } from './error-response';

/** How a route's answer travels (its contract's `transport`). */
export interface DispatchOptions {
  /** A response without end (SSE): no body timeout, however quiet between heartbeats. */
  stream?: boolean;
}

/** Hands a request (already authenticated) to the service that owns it. */
export interface Dispatcher {
  dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse, options?: DispatchOptions): Promise<void>;
  /** Hands an HTTP Upgrade (a WebSocket handshake, already authenticated) and its socket to the service. */
  upgrade(service: ServiceName, req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Standalone: call the service's handler in this process with the same req/res. */
export class LocalDispatcher implements Dispatcher {
  constructor(
    private readonly handlerOf: (service: ServiceName) => RequestHandler | undefined,
    private readonly upgradeOf: (service: ServiceName) => UpgradeHandler | undefined = () => undefined,
  ) {}

  upgrade(service: ServiceName, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const handler = this.upgradeOf(service);
    if (!handler) { refuseUpgrade(socket, errors.unavailable(`Service '${service}' is unavailable`)); return; }
    markInProcess(req);
    handler(req, socket, head);
  }

  /**
   * Resolves when the response closes; a live stream (`options.stream`) as
   * soon as the service's handler is done with it (the stream open, or
   * refused), so that neither this call nor the gateway's frames above it stay
   * suspended for the stream's life: its access line and request metric are
   * written when it opens.
   */
  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse, options: DispatchOptions = {}): Promise<void> {
    const handler = this.handlerOf(service);
    if (!handler) return sendError(res, errors.unavailable(`Service '${service}' is unavailable`));
    markInProcess(req);
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      const handled = handler(req, res);
      if (options.stream && handled) handled.then(() => resolve(), () => resolve());
    });
  }
}

function forwardable(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * Cluster: proxy over HTTP through a keep-alive pool per service origin
 * (undici Agent), streaming both bodies (uploads, downloads). The answer is
 * written straight into the client's response by a {@link ProxyHandler}
 * (no intermediate Readable, no per-request pipeline and AbortController);
 * nothing is parsed or re-serialised. Failures are logged with the request id and
 * answered by {@link classifyProxyError}: 503 only when the service cannot be
 * reached.
 */
export class HttpDispatcher implements Dispatcher {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1, connect: { timeout: 1_000 } });

  private readonly replicas: ServiceReplicas;

  /** `baseUrls`: one URL per service, or several comma-separated (its replicas, taken in turn per request). */
  constructor(
    baseUrls: Partial<Record<ServiceName, string>>,
    private readonly logger: Pick<Logger, 'warn' | 'error' | 'info'>,
    private readonly timeoutMs = 120_000,
  ) {
    this.replicas = new ServiceReplicas(baseUrls);
  }

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse, options: DispatchOptions = {}): Promise<void> {
    const base = this.replicas.next(service);
    if (!base) {
      this.logger.error({ target: service, request_id: req.headers['x-request-id'] }, 'proxy: no URL configured for service');
      return sendError(res, errors.unavailable(`Service '${service}' is unavailable`));
    }
    // Only origin-form targets travel (`/path?query`): an absolute-form one would name another host.
    const target = req.url ?? '/';
    if (!target.startsWith('/')) return sendError(res, appError('ERR_INVALID_PATH', 'Request target must be a path'));
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const handler = new ProxyHandler(req, res);
    try {
      this.agent.dispatch({
        origin: base, path: target, method: req.method as 'GET', headers: forwardable(req.headers), body: hasBody ? req : undefined,
        // A live stream (`transport: 'stream'`) has no end and may be quiet between heartbeats: no body timeout.
        headersTimeout: this.timeoutMs, bodyTimeout: options.stream ? 0 : this.timeoutMs,
      }, handler);
    } catch (err) {
      return this.failBeforeResponse(service, req, res, err);
    }
    const outcome = await handler.done;
    if (outcome.kind === 'done') return;
    if (outcome.kind === 'client-gone') {
      this.logFailure(service, req, undefined, outcome.answered ? 'proxy: response body interrupted' : 'proxy: upstream call failed', true);
      return;
    }
    if (!outcome.answered) return this.failBeforeResponse(service, req, res, outcome.err);
    // The status line went out already: no made-up status, the client connection is cut.
    this.logFailure(service, req, outcome.err, 'proxy: response body interrupted', false);
    res.destroy();
  }

  /**
   * An Upgrade goes to one replica over a connection of its own (not the
   * pool: the socket is the service's from then on). The service's answer
   * travels back as it came: a 101 and its headers, then both sockets are
   * piped into each other until either side closes; any other answer (401,
   * 404, 429) is relayed and the client's socket closed.
   */
  upgrade(service: ServiceName, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const base = this.replicas.next(service);
    if (!base) { refuseUpgrade(socket, errors.unavailable(`Service '${service}' is unavailable`)); return; }
    const headers: Record<string, string | string[]> = { ...forwardable(req.headers), connection: 'Upgrade', upgrade: String(req.headers.upgrade ?? 'websocket') };
    const upstream = http.request(new URL(req.url ?? '/', base), { method: 'GET', headers, timeout: this.timeoutMs, agent: false });
    const fail = (err: unknown) => {
      this.logFailure(service, req, err, 'proxy: upgrade failed', socket.destroyed);
      refuseUpgrade(socket, proxyFailureError(classifyProxyError(err), service));
    };
    upstream.once('timeout', () => upstream.destroy(new Error('upgrade: the service did not answer in time')));
    upstream.once('error', fail);
    socket.once('close', () => upstream.destroy());
    upstream.once('response', (answer) => {
      // Refused by the service: relay its status, headers and body, then close.
      const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage ?? ''}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(answer.rawHeaders[i].toLowerCase())) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      }
      socket.write(`${lines.join('\r\n')}\r\nconnection: close\r\n\r\n`);
      answer.pipe(socket);
    });
    upstream.once('upgrade', (answer, serviceSocket, serviceHead) => {
      upstream.off('error', fail);
      const lines = ['HTTP/1.1 101 Switching Protocols'];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (serviceHead.length) socket.write(serviceHead);
      const cut = () => { socket.destroy(); serviceSocket.destroy(); };
      serviceSocket.once('error', cut);
      socket.once('error', cut);
      serviceSocket.once('close', cut);
      socket.once('close', cut);
      serviceSocket.setNoDelay(true);
      serviceSocket.pipe(socket);
      socket.pipe(serviceSocket);
    });
    if (head.length) upstream.write(head);
    upstream.end();
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private failBeforeResponse(service: ServiceName, req: IncomingMessage, res: ServerResponse, err: unknown): void {
    const clientGone = (req.destroyed && !req.complete) || res.destroyed;
    this.logFailure(service, req, err, 'proxy: upstream call failed', clientGone);
    if (clientGone) return;
    sendError(res, proxyFailureError(classifyProxyError(err), service));
  }

  /** Logs one proxy failure with the request id (info when the client itself went away). */
  private logFailure(service: ServiceName, req: IncomingMessage, err: unknown, msg: string, clientGone: boolean): void {
    const failure = classifyProxyError(err);
    const fields = {
      // The upstream is `target`: `service` is the logging process's own field (one per line).
      target: service, request_id: req.headers['x-request-id'], method: req.method, path: req.url?.split('?')[0],
      status: failure.status, reason: failure.reason, code: failure.code, err,
    };
    if (clientGone) this.logger.info({ ...fields, reason: 'client-closed' }, `${msg}: the client closed the connection`);
    else this.logger.warn(fields, msg);
  }
}
