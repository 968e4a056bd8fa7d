import http from 'node:http';
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
