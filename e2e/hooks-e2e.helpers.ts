import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestApi, col } from '@tabula/testing';

/** A request the sink received. */
export interface SinkRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A local HTTP receiver for hook calls: records requests, answers from a per-path script (default 200). */
export class Sink {
  readonly received: SinkRequest[] = [];
  private readonly scripts = new Map<string, number[]>();
  private server?: Server;
  /** Milliseconds the sink waits before answering (slow receivers). */
  delayMs = 0;
  url = '';

  /** Starts listening on 127.0.0.1. */
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '').split('?')[0];
        this.received.push({ method: req.method ?? '', path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        const status = this.scripts.get(path)?.shift() ?? 200;
        const answer = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
        if (this.delayMs > 0) setTimeout(answer, this.delayMs); else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Statuses to answer, in order, for a path. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, [...statuses]);
  }

  /** Requests to a path. */
  at(path: string): SinkRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `count` requests reached a path. */
  async waitFor(path: string, count: number, timeoutMs = 15000): Promise<SinkRequest[]> {
    const until = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > until) throw new Error(`sink: ${this.at(path).length}/${count} requests at ${path}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.at(path);
  }

  /** Stops the server. */
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A JSON call through the gateway. */
export async function call(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await new TestApi(url).call(method, path, { token, body });
  return { status: res.status, body: res.body };
}

/** Signs up a user and creates a base with one table (Id, Name, Qty, Done); returns the ids. */
export async function setupTable(url: string, email: string): Promise<{ token: string; baseId: string; tableId: string; columns: { id: string; title: string }[] }> {
  const api = new TestApi(url);
  const user = await api.signUp('hooks', email);
  const table = await api.baseWithTable(user, { title: 'Items', table_name: 'items', columns: [col.id(), col.text('Name'), col.number('Qty'), col.checkbox('Done')] });
  return { token: user.token, baseId: table.baseId, tableId: table.id, columns: table.columns };
}
