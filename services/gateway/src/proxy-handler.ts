import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { ROUTE_TEMPLATE_HEADER, setRequestRoute } from '@tabula/telemetry';

/**
 * Headers that describe one hop, not the request. `expect` is answered by the
 * gateway's own HTTP server (100 Continue) before the body is read, so it must
 * not travel on: undici refuses it, which used to turn every curl upload over
 * 1 MiB into a 503.
 */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'expect']);

/** How a proxied exchange ended. */
export type ProxyOutcome =
  | { kind: 'done' }
  /** The service failed (or could not be reached); `answered` once its headers went to the client. */
  | { kind: 'upstream-error'; err: Error; answered: boolean }
  /** The client went away first; the upstream call was aborted. */
  | { kind: 'client-gone'; answered: boolean };

/**
 * An undici dispatch handler that writes the service's answer straight into
 * the client's response: status and headers (hop-by-hop ones and the route
 * template dropped, the template recorded for metrics) as they arrive, each
 * body chunk as it arrives, with backpressure both ways. No intermediate
 * stream, no parsing. `done` settles once the exchange is over.
 */
export class ProxyHandler implements Dispatcher.DispatchHandler {
  readonly done: Promise<ProxyOutcome>;

  private settle!: (outcome: ProxyOutcome) => void;

  private abort?: (err?: Error) => void;

  private answered = false;

  private over = false;

  constructor(private readonly req: IncomingMessage, private readonly res: ServerResponse) {
    this.done = new Promise((resolve) => { this.settle = resolve; });
    res.once('close', this.onClientClose);
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.over) abort();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx answers (100 Continue) concern the hop to the service only.
    if (statusCode < 200) return true;
    // Someone answered the client already (the body limit's 413): the service's answer has nowhere to go.
    if (this.res.headersSent) {
      this.finish({ kind: 'client-gone', answered: true });
      this.abort?.();
      return false;
    }
    const headers: string[] = [];
    for (let i = 0; i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i].toString('latin1');
      const lower = name.toLowerCase();
      const value = rawHeaders[i + 1].toString('latin1');
      if (lower === ROUTE_TEMPLATE_HEADER) setRequestRoute(this.req, value);
      else if (!HOP_BY_HOP.has(lower)) headers.push(name, value);
    }
    this.answered = true;
    this.res.writeHead(statusCode, headers);
    this.res.on('drain', resume);
    return !this.res.writableNeedDrain;
  }

  onData(chunk: Buffer): boolean {
    return this.res.write(chunk);
  }

  onComplete(): void {
    this.res.end();
    this.finish({ kind: 'done' });
  }

  onError(err: Error): void {
    if (this.over) return;
    this.finish({ kind: 'upstream-error', err, answered: this.answered });
  }

  private readonly onClientClose = (): void => {
    if (this.over) return;
    this.finish({ kind: 'client-gone', answered: this.answered });
    this.abort?.();
  };

  private finish(outcome: ProxyOutcome): void {
    if (this.over) return;
    this.over = true;
    this.res.off('close', this.onClientClose);
    this.settle(outcome);
  }
}
