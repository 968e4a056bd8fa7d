import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import {
  eventsBaseStream, eventsTableStream, feedSocketClientMessage,
  type FeedSocketClientMessage, type FeedSocketServerMessage, type TableContext,
} from '@tabula/contracts';
import { appError, callerKindOf, errorBody, toAppError, type AppError, type Authorizer } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { RealtimePorts } from '../ports';
import { checkWhereSyntax, compileWhere, parseFields } from './feed-filter';
import { columnMetas } from './stream-scope';
import { TooManyStreams, type EndReason, type FeedSink, type FeedSocket, type Subscription } from './feed-hub';
import { drainedOf, type FeedOut, type Flushable } from './feed-output';

/** Close codes of the socket (4000–4999: the application's own). */
export const SOCKET_CLOSE = { revoked: 4001, overflow: 4008, shutdown: 1012 } as const;

type Subscribe = Extract<FeedSocketClientMessage, { op: 'subscribe' }>;

/**
 * One WebSocket of the feed: many subscriptions (tables and bases), each
 * authorized as its SSE stream would be, counted against the principal's cap
 * and served by the hub like a stream. Messages are handled in order (answers
 * come in the order asked); a subscription's replay runs beside the others.
 * The socket's unsent bytes are bounded (SVC_FEED_BUFFER_BYTES): past the
 * bound every subscription ends with its last delivered id and the socket
 * closes (4008). A revoked credential closes it (4001). A client that answers
 * no ping for 2 heartbeats is dropped (its subscriptions stop counting).
 */
export class SocketSession implements FeedSocket {
  /** Subscriptions the client holds: opening (replaying) or live. */
  private readonly active = new Map<string, Subscription | undefined>();
  private next = 0;
  private queue: Promise<void> = Promise.resolve();
  private over = false;
  private overflowing = false;
  private pinger: NodeJS.Timeout | undefined;
  /** Pings sent since the last pong. */
  private unanswered = 0;
  private pingQueued = false;
  /** The raw socket is corked while a batch of rows is dispatched. */
  private corked = false;
  private readonly uncork: Flushable = { flush: () => { if (this.corked) { this.corked = false; this.raw.uncork(); } } };

  constructor(
    private readonly ports: RealtimePorts,
    private readonly authorizer: Authorizer,
    private readonly ws: WebSocket,
    private readonly raw: Duplex,
    readonly principal: Principal,
  ) {}

  start(): void {
    this.ports.hub.addSocket(this);
    this.ws.on('message', (data, isBinary) => {
      this.queue = this.queue.then(() => this.handle(data, isBinary)).catch((err: unknown) => this.ports.logger.warn({ err }, 'feed socket: message failed'));
    });
    this.ws.on('close', () => this.forget());
    this.ws.on('error', () => this.ws.terminate());
    // A ping frame every SVC_FEED_HEARTBEAT_MS keeps proxies from closing a quiet socket, and finds dead clients:
    // one that has answered none of the last 2 pings it was sent is dropped (terminated), its subscriptions released.
    this.ws.on('pong', () => { this.unanswered = 0; });
    this.pinger = setInterval(() => this.ping(), this.ports.config.SVC_FEED_HEARTBEAT_MS);
    this.pinger.unref();
  }

  private ping(): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    // Bytes still waiting to leave: the client is slow to read (its pongs queue behind what it has not read yet);
    // SVC_FEED_BUFFER_BYTES bounds that case, not the pings.
    if (this.ws.bufferedAmount > 0 || this.raw.writableLength > 0) return;
    if (this.unanswered >= 2) {
      this.ports.logger.info({ subscriptions: this.active.size }, 'feed socket: no pong for 2 heartbeats; dropped');
      this.forget();
      this.ws.terminate();
      return;
    }
    // A ping counts as unanswered once it has left (its write completed).
    if (this.pingQueued) return;
    this.pingQueued = true;
    this.ws.ping(undefined, undefined, (err) => {
      this.pingQueued = false;
      if (!err) this.unanswered += 1;
    });
  }

  revoke(): void {
    this.endEvery('revoked');
    this.close(SOCKET_CLOSE.revoked, 'access revoked');
  }

  shutdown(): void {
    this.endEvery('shutdown');
    this.close(SOCKET_CLOSE.shutdown, 'restarting: reconnect with last_event_id');
  }

  private async handle(data: RawData, isBinary: boolean): Promise<void> {
    if (this.over) return;
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      parsed = JSON.parse(data.toString());
    } catch {
      this.error(undefined, undefined, appError('ERR_INVALID_REQUEST_BODY', 'A message is one JSON object (text frame)'));
      return;
    }
    const ref = typeof parsed === 'object' && parsed !== null && typeof (parsed as { ref?: unknown }).ref === 'string' ? (parsed as { ref: string }).ref : undefined;
    const message = feedSocketClientMessage.safeParse(parsed);
    if (!message.success) {
      this.error(ref, undefined, appError('ERR_INVALID_REQUEST_BODY', `Invalid message: ${z.prettifyError(message.error)}`));
      return;
    }
    if (message.data.op === 'unsubscribe') {
      await this.unsubscribe(message.data.subscription, ref);
      return;
    }
    try {
      await this.subscribe(message.data);
    } catch (err) {
      this.error(ref, undefined, err instanceof TooManyStreams
        ? appError('ERR_TOO_MANY_REQUESTS', `At most ${this.ports.config.SVC_FEED_MAX_STREAMS_PER_PRINCIPAL} concurrent streams per user`)
        : toAppError(err, []));
    }
  }

  /** Authorizes as the SSE stream of that table or base would be, then opens it; `subscribed` precedes any event. */
  private async subscribe(message: Subscribe): Promise<void> {
    const { ports, principal } = this;
    const endpoint = message.table_id !== undefined ? eventsTableStream : eventsBaseStream;
    const input = message.table_id !== undefined
      ? { params: { tableId: message.table_id }, query: {}, body: undefined }
      : { params: { baseId: message.base_id }, query: {}, body: undefined };
    if (!endpoint.auth.callers.includes(callerKindOf(principal) as never)) throw await this.authorizer.refuse(endpoint, principal, input);
    const scope = await this.authorizer.authorize(endpoint, principal, input);
    const whereText = message.where === '' ? undefined : message.where;
    const fields = parseFields(message.fields);
    const baseId = scope.baseId as string;
    let spec;
    if (message.table_id !== undefined) {
      const table = scope.value as TableContext;
      const where = whereText ? compileWhere(whereText, columnMetas(table)) : undefined;
      spec = { principal, kind: 'table' as const, scopeId: table.table.id, baseId, where, whereText, fields, lastEventId: message.last_event_id };
    } else {
      checkWhereSyntax(whereText);
      spec = { principal, kind: 'base' as const, scopeId: baseId, baseId, whereText, fields, lastEventId: message.last_event_id };
    }
    if (this.over) return;
    this.next += 1;
    const id = `s${this.next}`;
    let registered!: () => void;
    const admitted = new Promise<void>((resolve) => { registered = resolve; });
    const opening = ports.hub.open(spec, this.sink(id), () => {
      this.active.set(id, undefined);
      this.send({ op: 'subscribed', subscription: id, ...(message.ref !== undefined ? { ref: message.ref } : {}) });
      registered();
    });
    // open() admits (the cluster-wide cap), registers and calls back (`subscribed`) before it replays: the next
    // message waits for that, not for the replay; a refusal (429) is the answer instead of `subscribed`.
    await Promise.race([admitted, opening]);
    if (!this.active.has(id)) {
      const sub = await opening;
      ports.hub.drop(sub);
      return;
    }
    void opening.then((sub) => {
      if (this.active.has(id) && !this.over) this.active.set(id, sub);
      else ports.hub.drop(sub);
    }, (err: unknown) => {
      if (!this.active.delete(id)) return;
      ports.logger.warn({ err }, 'feed socket: replay failed');
      this.send({ op: 'closed', subscription: id, reason: 'reconnect', last_event_id: spec.lastEventId ?? null });
    });
  }

  /** `unsubscribed` once the subscription no longer counts against the cap. */
  private async unsubscribe(id: string, ref: string | undefined): Promise<void> {
    if (!this.active.has(id)) {
      this.error(ref, id, appError('ERR_NOT_FOUND', `No subscription '${id}' on this socket`));
      return;
    }
    const sub = this.active.get(id);
    this.active.delete(id);
    if (sub) await this.ports.hub.drop(sub);
    this.send({ op: 'unsubscribed', subscription: id, ...(ref !== undefined ? { ref } : {}) });
  }

  /** What the hub writes for one subscription. */
  private sink(id: string): FeedSink {
    const bound = this.ports.config.SVC_FEED_BUFFER_BYTES;
    const backlogged = () => this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount >= bound;
    return {
      event: (out: FeedOut) => {
        if (!this.active.has(id) || this.ws.readyState !== this.ws.OPEN) return true;
        if (this.ws.bufferedAmount >= bound) return false;
        // The events of one batch of rows leave in one write (the socket is corked until the batch is dispatched).
        if (!this.corked) { this.corked = true; this.raw.cork(); this.ports.hub.writes.add(this.uncork); }
        // {"op":"event","subscription":…, …the event's own fields}: the event's JSON text, made once per row, is reused.
        this.ws.send(`{"op":"event","subscription":${JSON.stringify(id)},${out.json.slice(1)}`);
        return true;
      },
      backlogged,
      drained: () => {
        this.uncork.flush();
        return drainedOf(this.raw, backlogged);
      },
      reset: () => { if (this.active.has(id)) this.send({ op: 'reset', subscription: id }); },
      end: (reason: EndReason, lastId: string | undefined) => {
        if (!this.active.has(id)) return;
        this.active.delete(id);
        this.send({ op: 'closed', subscription: id, reason: reason === 'shutdown' ? 'reconnect' : reason, last_event_id: lastId ?? null });
        if (reason === 'overflow') this.overflow();
      },
    };
  }

  /** A slow client: every subscription ends with its last delivered id, then the socket closes. */
  private overflow(): void {
    if (this.overflowing) return;
    this.overflowing = true;
    this.endEvery('overflow');
    this.close(SOCKET_CLOSE.overflow, 'slow consumer: resume with last_event_id');
  }

  private endEvery(reason: EndReason): void {
    for (const sub of [...this.active.values()]) if (sub) this.ports.hub.end(sub, reason);
  }

  private close(code: number, reason: string): void {
    this.forget();
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  /** The socket is gone (or going): its subscriptions leave the hub. */
  private forget(): void {
    if (this.over) return;
    this.over = true;
    clearInterval(this.pinger);
    this.ports.hub.removeSocket(this);
    for (const sub of this.active.values()) if (sub) this.ports.hub.drop(sub);
    this.active.clear();
  }

  private error(ref: string | undefined, subscription: string | undefined, error: AppError): void {
    this.send({ op: 'error', ...(ref !== undefined ? { ref } : {}), ...(subscription !== undefined ? { subscription } : {}), status: error.status, ...errorBody(error) } as FeedSocketServerMessage);
  }

  private send(message: FeedSocketServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }
}
