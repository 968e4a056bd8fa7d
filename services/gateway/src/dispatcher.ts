import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent } from 'undici';
import type { RequestHandler, ServiceName } from '@tabula/http';
import { appError, classifyProxyError, errors, proxyFailureError, ServiceReplicas } from '@tabula/http';
import { markInProcess, type Logger } from '@tabula/telemetry';
import { HOP_BY_HOP, ProxyHandler } from './proxy-handler';
import { sendError } from './error-response';

/** Hands a request (already authenticated) to the service that owns it. */
export interface Dispatcher {
  dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Standalone: call the service's handler in this process with the same req/res. */
export class LocalDispatcher implements Dispatcher {
  constructor(private readonly handlerOf: (service: ServiceName) => RequestHandler | undefined) {}

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handler = this.handlerOf(service);
    if (!handler) return sendError(res, errors.unavailable(`Service '${service}' is unavailable`));
    markInProcess(req);
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      handler(req, res);
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

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
        // A live stream (realtime) has no end and may be quiet between heartbeats: no body timeout.
        headersTimeout: this.timeoutMs, bodyTimeout: service === 'realtime' ? 0 : this.timeoutMs,
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
