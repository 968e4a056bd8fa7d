import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, request } from 'undici';
import type { RequestHandler, ServiceName } from '@tabula/http';
import { errorBody, errors } from '@tabula/http';

/** Hands a request (already authenticated) to the service that owns it. */
export interface Dispatcher {
  dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

function sendUnavailable(res: ServerResponse, service: ServiceName): void {
  if (res.headersSent) { res.destroy(); return; }
  const body = JSON.stringify(errorBody(errors.unavailable(`Service '${service}' is unavailable`)));
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Standalone: call the service's handler in this process with the same req/res. */
export class LocalDispatcher implements Dispatcher {
  constructor(private readonly handlerOf: (service: ServiceName) => RequestHandler | undefined) {}

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handler = this.handlerOf(service);
    if (!handler) return sendUnavailable(res, service);
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      handler(req, res);
    });
  }
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);

/**
 * Cluster: proxy over HTTP with keep-alive, streaming both bodies (uploads,
 * downloads). A service that is down or does not connect within 1 s is a 503.
 */
export class HttpDispatcher implements Dispatcher {
  private readonly agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, connect: { timeout: 1_000 } });

  constructor(private readonly baseUrls: Partial<Record<ServiceName, string>>, private readonly timeoutMs = 120_000) {}

  async dispatch(service: ServiceName, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const base = this.baseUrls[service];
    if (!base) return sendUnavailable(res, service);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    try {
      const upstream = await request(new URL(req.url ?? '/', base), {
        method: req.method as 'GET', headers, body: hasBody ? req : undefined, dispatcher: this.agent,
        headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs,
      });
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(upstream.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(upstream.statusCode, out);
      for await (const chunk of upstream.body) res.write(chunk);
      res.end();
    } catch {
      sendUnavailable(res, service);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
