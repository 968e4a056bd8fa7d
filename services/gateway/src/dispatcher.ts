import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import type { RequestHandler, ServiceName } from '@tabula/http';
import { classifyProxyError, errorBody, errorCode, errors, proxyFailureError, type AppError } from '@tabula/http';
import { markInProcess, ROUTE_TEMPLATE_HEADER, setRequestRoute, type Logger } from '@tabula/telemetry';

/** Hands a request (already authenticated) to the service that owns it. */
export interface Dispatcher {
  dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function sendError(res: ServerResponse, error: AppError): void {
  if (res.headersSent) { res.destroy(); return; }
  const body = JSON.stringify(errorBody(error));
  res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
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

/**
 * Headers that describe one hop, not the request. `expect` is answered by the
 * gateway's own HTTP server (100 Continue) before the body is read, so it must
 * not travel on: undici refuses it, which used to turn every curl upload over
 * 1 MiB into a 503.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'expect']);

function forwardable(headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/**
 * Cluster: proxy over HTTP with keep-alive, streaming both bodies (uploads,
 * downloads). Failures are logged with the request id and answered by
 * {@link classifyProxyError}: 503 only when the service cannot be reached.
 */
export class HttpDispatcher implements Dispatcher {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, connect: { timeout: 1_000 } });

  constructor(
    private readonly baseUrls: Partial<Record<ServiceName, string>>,
    private readonly logger: Pick<Logger, 'warn' | 'error' | 'info'>,
    private readonly timeoutMs = 120_000,
  ) {}

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const base = this.baseUrls[service];
    if (!base) {
      this.logger.error({ service, request_id: req.headers['x-request-id'] }, 'proxy: no URL configured for service');
      return sendError(res, errors.unavailable(`Service '${service}' is unavailable`));
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    let upstream: Awaited<ReturnType<typeof request>>;
    try {
      upstream = await request(new URL(req.url ?? '/', base), {
        method: req.method as 'GET', headers: forwardable(req.headers), body: hasBody ? req : undefined, dispatcher: this.agent,
        headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
      });
    } catch (err) {
      return this.failBeforeResponse(service, req, res, err);
    }
    const headers = forwardable(upstream.headers);
    const route = headers[ROUTE_TEMPLATE_HEADER];
    delete headers[ROUTE_TEMPLATE_HEADER];
    if (typeof route === 'string') setRequestRoute(req, route);
    res.writeHead(upstream.statusCode, headers);
    try {
      await pipeline(upstream.body, res);
    } catch (err) {
      // pipeline() destroys `res` either way; a premature close of `res` is the client leaving.
      const clientGone = errorCode(err) === 'ERR_STREAM_PREMATURE_CLOSE';
      this.logFailure(service, req, err, 'proxy: response body interrupted', clientGone);
      res.destroy();
    }
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
      service, request_id: req.headers['x-request-id'], method: req.method, path: req.url?.split('?')[0],
      status: failure.status, reason: failure.reason, code: failure.code, err,
    };
    if (clientGone) this.logger.info({ ...fields, reason: 'client-closed' }, `${msg}: the client closed the connection`);
    else this.logger.warn(fields, msg);
  }
}
