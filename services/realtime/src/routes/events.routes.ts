import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ServerResponse } from 'node:http';
import { eventsBaseStream, eventsSocket, eventsTableStream, eventsTicketCreate, type FeedEvent, type TableContext } from '@tabula/contracts';
import { appError, errors, guardedRouter, route, scopeOf, type Authorizer, type EndpointContext } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { RealtimePorts } from '../ports';
import { issueTicket, useTicket } from '../domain/tickets';
import { checkWhereSyntax, compileWhere, parseFields } from '../domain/feed-filter';
import { columnMetas } from '../domain/stream-scope';
import { TooManyStreams, type EndReason, type FeedSink, type SubscriptionSpec } from '../domain/feed-hub';
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

/** SSE framing of one event: `id:`, `event:`, `data:` (one line of JSON: `json`, the event's JSON text). */
export function sseFrame(seq: string, event: FeedEvent, json = JSON.stringify(event)): string {
  return `id: ${seq}\nevent: ${event.type}\ndata: ${json}\n\n`;
}

/** A sink writing SSE frames to a response, closing it when the client's buffer passes `bound` bytes. */
function sseSink(res: ServerResponse, bound: number): FeedSink & { ping(): boolean } {
  let corked = false;
  const write = (text: string): boolean => {
    if (res.destroyed || res.writableEnded) return true;
    // Bounded: nothing more is queued once the unsent bytes reach the bound (at most bound + one event are held).
    if (res.writableLength >= bound) return false;
    // The frames written in one tick (a page of the log) leave in one write.
    if (!corked) {
      corked = true;
      res.cork();
      process.nextTick(() => { corked = false; res.uncork(); });
    }
    res.write(text);
    return true;
  };
  return {
    event: (seq, event, json) => write(sseFrame(seq, event, json)),
    backlogged: () => !res.destroyed && !res.writableEnded && res.writableLength >= bound,
    drained: () => new Promise<void>((resolve) => {
      const done = () => { res.off('drain', done); res.off('close', done); resolve(); };
      res.once('drain', done);
      res.once('close', done);
    }),
    reset: () => { write(`event: reset\ndata: ${JSON.stringify({ reason: 'the resume id is older than the retained log; reload' })}\n\n`); },
    ping: () => write(': ping\n\n'),
    end(reason: EndReason, lastId: string | undefined) {
      if (res.destroyed || res.writableEnded) return;
      const name = reason === 'shutdown' ? 'reconnect' : reason;
      res.end(`event: ${name}\ndata: ${JSON.stringify({ last_event_id: lastId ?? null })}\n\n`);
    },
  };
}

/** Opens an SSE stream for the authorized scope; resolves when it closes. */
async function openStream(ports: RealtimePorts, ctx: EndpointContext<typeof eventsTableStream> | EndpointContext<typeof eventsBaseStream>, spec: Omit<SubscriptionSpec, 'fields' | 'lastEventId' | 'whereText'>): Promise<void> {
  const { query } = ctx.input;
  const header = ctx.get('last-event-id');
  const fields = parseFields(query.fields);
  const whereText = query.where === '' ? undefined : query.where;
  checkWhereSyntax(whereText);
  const full: SubscriptionSpec = { ...spec, fields, whereText, lastEventId: header !== '' ? header : query.last_event_id };
  const res = ctx.res;
  const sink = sseSink(res, ports.config.SVC_FEED_BUFFER_BYTES);
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
  const opened = sub;
  ports.hub.addHeartbeat(opened, () => sink.ping());
  await new Promise<void>((resolve) => {
    if (res.destroyed || res.writableEnded) { resolve(); return; }
    res.once('close', resolve);
  });
  ports.hub.drop(opened);
}

/** The realtime endpoints: table and base streams, tickets. */
export function eventsRouter(ports: RealtimePorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  router.use(ticketGate(ports));
  route(router, eventsTableStream, async (ctx) => {
    const scope = scopeOf<TableContext>(ctx);
    assertTicketScope(ctx, 'table', ctx.input.params.tableId);
    const where = ctx.input.query.where ? compileWhere(ctx.input.query.where, columnMetas(scope.value)) : undefined;
    await openStream(ports, ctx, { principal: scope.principal as Principal, kind: 'table', scopeId: scope.value.table.id, baseId: scope.baseId as string, where });
    return '';
  });
  route(router, eventsBaseStream, async (ctx) => {
    const scope = scopeOf<string>(ctx);
    assertTicketScope(ctx, 'base', ctx.input.params.baseId);
    await openStream(ports, ctx, { principal: scope.principal as Principal, kind: 'base', scopeId: scope.baseId as string, baseId: scope.baseId as string });
    return '';
  });
  route(router, eventsTicketCreate, (ctx) => issueTicket(ports, scopeOf(ctx).principal as Principal, ctx.input.body));
  // The socket is the server's `upgrade` (events.socket.ts); a plain request is told so.
  route(router, eventsSocket, () => {
    throw appError('ERR_UPGRADE_REQUIRED', `GET ${eventsSocket.path} is a WebSocket: send Connection: Upgrade, Upgrade: websocket`);
  });
  return router;
}
