import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { eventsBaseStream, eventsSocket, eventsTableStream, eventsTicketCreate, type TableContext } from '@tabula/contracts';
import { appError, errors, guardedRouter, route, scopeOf, type Authorizer, type EndpointContext } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { RealtimePorts } from '../ports';
import { issueTicket, useTicket } from '../domain/tickets';
import { checkWhereSyntax, compileWhere, parseFields } from '../domain/feed-filter';
import { columnMetas } from '../domain/stream-scope';
import { TooManyStreams, type EndReason, type FeedSink, type Subscription, type SubscriptionSpec } from '../domain/feed-hub';
import { drainedOf, type Flushable, type WriteBatch } from '../domain/feed-output';
import type { TicketGrant } from '../repositories/ticket.repository';

const TICKET = 'realtimeTicket';

/**
 * `?ticket=` (browsers' EventSource, which sends no headers): when the request
 * carries no credential, the ticket is used up and its principal is the
 * caller; the stream must be the one it was issued for.
 */
function ticketGate(ports: RealtimePorts): Middleware {
  return async (ctx, next) => {
    const ticket = ctx.query.ticket;
    if (typeof ticket === 'string' && ticket !== '' && !ctx.state.principal) {
      const grant = await useTicket(ports, ticket);
      ctx.state.principal = grant.principal;
      ctx.state[TICKET] = grant;
    }
    await next();
  };
}

function assertTicketScope(ctx: { state: Record<string, unknown> }, kind: 'table' | 'base', id: string): void {
  const grant = ctx.state[TICKET] as TicketGrant | undefined;
  if (grant && (grant.scope_kind !== kind || grant.scope_id !== id)) throw errors.unauthorized('The ticket was issued for another stream');
}

const PING = Buffer.from(': ping\n\n');

/**
 * The socket a response may be written to directly: its headers are out, its
 * body is chunked (HTTP/1.1) and it is the message the connection is sending
 * now (not one queued behind another response of a pipelining client, whose
 * bytes wait in the response). Else undefined: writes go through the response.
 */
function directSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket;
  if (!socket || !res.headersSent || !res.chunkedEncoding || res.writableEnded) return undefined;
  // bytes the response still holds (its headers, say, if the socket was not writable then) must leave first
  if ((res as ServerResponse & { outputData?: unknown[] }).outputData?.length) return undefined;
  return (socket as Socket & { _httpMessage?: unknown })._httpMessage === res ? socket : undefined;
}

/**
 * A sink writing SSE frames to a response: the frames of one batch of rows
 * (shared buffers, encoded once per event) leave in one write when the batch
 * is dispatched; past `bound` unsent bytes the stream is ended as a slow
 * consumer. The write goes straight to the socket as one HTTP chunk (built
 * once for every stream that got the same frames: {@link WriteBatch.joined}),
 * not through the response's chunked write (four buffers, a cork and a
 * next-tick uncork per write): the fan-out's cost is per client write.
 */
function sseSink(res: ServerResponse, bound: number, writes: WriteBatch): FeedSink & { ping(): boolean } {
  let frames: Buffer[] = [];
  let bytes = 0;
  let queued = false;
  const gone = () => res.destroyed || res.writableEnded;
  const batch: Flushable = {
    flush() {
      queued = false;
      if (frames.length === 0) return;
      const list = frames;
      const size = bytes;
      frames = [];
      bytes = 0;
      if (gone()) return;
      const socket = directSocket(res);
      if (socket) socket.write(writes.joined(list, size, true));
      else res.write(writes.joined(list, size, false));
    },
  };
  const push = (frame: Buffer): boolean => {
    if (gone()) return true;
    // Bounded: nothing more is queued once the unsent bytes reach the bound (at most bound + one event are held).
    // (res.writableLength counts the socket's unsent bytes too, those written to it directly included.)
    if (res.writableLength + bytes >= bound) return false;
    frames.push(frame);
    bytes += frame.length;
    if (!queued) { queued = true; writes.add(batch); }
    return true;
  };
  const backlogged = () => !gone() && res.writableLength + bytes >= bound;
  return {
    event: (out) => push(out.sse),
    backlogged,
    drained: () => {
      batch.flush();
      // written to directly, the socket says when it drained (the response only does for its own writes)
      return drainedOf(directSocket(res) ?? res, backlogged);
    },
    reset: () => { push(Buffer.from(`event: reset\ndata: ${JSON.stringify({ reason: 'the resume id is older than the retained log; reload' })}\n\n`)); },
    ping: () => push(PING),
    end(reason: EndReason, lastId: string | undefined) {
      if (gone()) return;
      batch.flush();
      const name = reason === 'shutdown' ? 'reconnect' : reason;
      res.end(`event: ${name}\ndata: ${JSON.stringify({ last_event_id: lastId ?? null })}\n\n`);
    },
  };
}

/**
 * Opens an SSE stream for the authorized scope; resolves once it is open (or
 * refused). The stream then lives on its subscription, its sink and the
 * response's `close` listener, not on the request's middleware chain: the
 * suspended frames of every layer (and the gateway's, in one process) would
 * otherwise be held for the stream's whole life (about 14 async frames, 12 kB
 * per idle stream).
 */
async function openStream(ports: RealtimePorts, ctx: EndpointContext<typeof eventsTableStream> | EndpointContext<typeof eventsBaseStream>, spec: Omit<SubscriptionSpec, 'fields' | 'lastEventId' | 'whereText'>): Promise<void> {
  const { query } = ctx.input;
  const header = ctx.get('last-event-id');
  const fields = parseFields(query.fields);
  const whereText = query.where === '' ? undefined : query.where;
  checkWhereSyntax(whereText);
  const full: SubscriptionSpec = { ...spec, fields, whereText, lastEventId: header !== '' ? header : query.last_event_id };
  const res = ctx.res;
  const sink = sseSink(res, ports.config.SVC_FEED_BUFFER_BYTES, ports.hub.writes);
  let started = false;
  const start = () => {
    started = true;
    ctx.respond = false;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no',
    });
    res.write('retry: 1000\n\n');
  };
  let sub;
  try {
    sub = await ports.hub.open(full, sink, start);
  } catch (err) {
    if (err instanceof TooManyStreams) throw appError('ERR_TOO_MANY_REQUESTS', `At most ${ports.config.SVC_FEED_MAX_STREAMS_PER_PRINCIPAL} concurrent streams per user`);
    if (!started) throw err;
    ports.logger.warn({ err }, 'feed: replay failed');
    res.destroy();
    return;
  }
  // The request's access scope (the table's full metadata, which the koa context keeps until the response closes) is
  // not held for the stream's lifetime.
  delete ctx.state.scope;
  keepOpen(ports, res, sub, sink);
}

/**
 * The open stream's heartbeat and its end when the client goes. Made here, not
 * in {@link openStream}: closures share their function's scope, which there
 * holds the koa context.
 */
function keepOpen(ports: RealtimePorts, res: ServerResponse, sub: Subscription, sink: { ping(): boolean }): void {
  ports.hub.addHeartbeat(sub, () => sink.ping());
  const closed = () => { void ports.hub.drop(sub); };
  if (res.destroyed || res.writableEnded) closed();
  else res.once('close', closed);
}

/** The realtime endpoints: table and base streams, tickets. */
export function eventsRouter(ports: RealtimePorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  router.use(ticketGate(ports));
  // Not async: no frame of the handler (holding the table's metadata) stays suspended while the stream lasts.
  route(router, eventsTableStream, (ctx) => {
    const scope = scopeOf<TableContext>(ctx);
    assertTicketScope(ctx, 'table', ctx.input.params.tableId);
    const where = ctx.input.query.where ? compileWhere(ctx.input.query.where, columnMetas(scope.value)) : undefined;
    return openStream(ports, ctx, { principal: scope.principal as Principal, kind: 'table', scopeId: scope.value.table.id, baseId: scope.baseId as string, where }).then(() => '');
  });
  route(router, eventsBaseStream, (ctx) => {
    const scope = scopeOf<string>(ctx);
    assertTicketScope(ctx, 'base', ctx.input.params.baseId);
    return openStream(ports, ctx, { principal: scope.principal as Principal, kind: 'base', scopeId: scope.baseId as string, baseId: scope.baseId as string }).then(() => '');
  });
  route(router, eventsTicketCreate, (ctx) => issueTicket(ports, scopeOf(ctx).principal as Principal, ctx.input.body));
  // The socket is the server's `upgrade` (events.socket.ts); a plain request is told so.
  route(router, eventsSocket, () => {
    throw appError('ERR_UPGRADE_REQUIRED', `GET ${eventsSocket.path} is a WebSocket: send Connection: Upgrade, Upgrade: websocket`);
  });
  return router;
}
