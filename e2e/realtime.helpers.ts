import http from 'node:http';
import WebSocket from 'ws';
import { TestApi, startTestStack, type TestStack } from '@tabula/testing';
import { allServices } from '../scripts/services';

/** One SSE event as a client receives it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/**
 * A Server-Sent Events client on a real socket (node:http): parses frames as
 * they arrive, keeps every event and ping, and knows when the stream ended.
 */
export class SseClient {
  events: SseEvent[] = [];
  pings = 0;
  status = 0;
  body = '';
  ended = false;
  endedAt = 0;
  private buffer = '';
  private req?: http.ClientRequest;
  private res?: http.IncomingMessage;
  private waiters: Array<() => void> = [];

  /** Opens `path` on `url` with headers; resolves once the status line arrived. */
  static open(url: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = http.get(`${url}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        client.status = res.statusCode ?? 0;
        client.res = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => client.feed(chunk));
        const done = () => { if (!client.ended) { client.ended = true; client.endedAt = Date.now(); client.notify(); } };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
        resolve(client);
      });
      client.req = req;
      req.on('error', (err) => { if (!client.status) reject(err); });
    });
  }

  /** Events of one type (or every record event). */
  of(type: string): SseEvent[] {
    return this.events.filter((e) => e.event === type);
  }

  /** Closes the connection from the client's side. */
  close(): void {
    this.req?.destroy();
  }

  /** Stops reading (the socket's buffers fill up) / reads again. */
  pause(): void { this.res?.pause(); }
  resume(): void { this.res?.resume(); }

  /** Waits until `check` holds (re-checked on every frame), failing after `timeoutMs`. */
  async until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE: timed out waiting for ${what}; got ${JSON.stringify(this.events.map((e) => [e.id, e.event]))} ended=${this.ended}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private feed(chunk: string): void {
    if (this.status !== 200) { this.body += chunk; this.notify(); return; }
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith(':'))) { if (block.includes('ping')) this.pings += 1; continue; }
      const frame: SseEvent = { event: 'message', data: undefined };
      let data: string | undefined;
      for (const line of lines) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') frame.id = value;
        else if (field === 'event') frame.event = value;
        else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
      }
      if (data === undefined) continue;
      frame.data = JSON.parse(data);
      this.events.push(frame);
    }
    this.notify();
  }
}

/** A whole Tabula with every service (realtime included) on a fresh database. */
export async function startRealtimeStack(env: Record<string, string> = {}): Promise<{ stack: TestStack; api: TestApi }> {
  const stack = await startTestStack(allServices, env);
  return { stack, api: new TestApi(stack.url) };
}

/** How many times each value occurs. */
export function countBy<T>(values: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/**
 * A WebSocket client of GET /api/v1/events/ws on a real socket (the `ws`
 * package): keeps every message the server sent, its close code, and sends
 * JSON messages.
 */
export class WsClient {
  messages: any[] = [];
  closeCode = 0;
  closed = false;
  /** Ping frames the server sent. */
  pings = 0;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => { this.messages.push(JSON.parse(data.toString())); this.notify(); });
    ws.on('close', (code) => { this.closed = true; this.closeCode = code; this.notify(); });
    ws.on('ping', () => { this.pings += 1; this.notify(); });
  }

  /** Opens the socket at `url` (http://…) + `path`; resolves once open, or rejects with the refusal's status and body. */
  static open(url: string, path = '/api/v1/events/ws', headers: Record<string, string> = {}, options: WebSocket.ClientOptions = {}): Promise<WsClient> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}${path}`, { ...options, headers });
    const client = new WsClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => { body += c; });
        res.on('end', () => reject(Object.assign(new Error(`refused: ${res.statusCode} ${body}`), { status: res.statusCode, body: body ? JSON.parse(body) : undefined })));
      });
      ws.once('error', (err) => reject(err));
    });
  }

  /** The refusal of an Upgrade (status and JSON body), or fails when the socket opened. */
  static async refusal(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    try {
      const opened = await WsClient.open(url, path, headers);
      opened.close();
    } catch (err) {
      const e = err as { status?: number; body?: unknown };
      if (e.status) return { status: e.status, body: e.body };
      throw err;
    }
    throw new Error('the socket opened');
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a subscribe and waits for its answer (`subscribed` or `error`, matched by `ref`). */
  async subscribe(message: Record<string, unknown>): Promise<any> {
    const ref = `r${Math.random().toString(36).slice(2)}`;
    this.send({ op: 'subscribe', ...message, ref });
    await this.until(() => this.messages.some((m) => m.ref === ref), 10_000, `the answer to ${JSON.stringify(message)}`);
    return this.messages.find((m) => m.ref === ref);
  }

  /** Event messages of one subscription. */
  events(subscription: string): any[] {
    return this.messages.filter((m) => m.op === 'event' && m.subscription === subscription);
  }

  close(): void { this.ws.close(); }

  async until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`WS: timed out waiting for ${what}; got ${JSON.stringify(this.messages.map((m) => [m.op, m.subscription, m.id ?? m.reason ?? m.error]))} closed=${this.closed}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
