import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS } from '../endpoint/access';

/** The event types a stream carries (records on every stream; table and column changes on a base's). */
export const FEED_RECORD_TYPES = ['records.after.insert', 'records.after.update', 'records.after.delete'] as const;
export const FEED_META_TYPES = [
  'meta.table.created', 'meta.table.updated', 'meta.table.deleted',
  'meta.column.created', 'meta.column.updated', 'meta.column.deleted',
] as const;

const feedId = z.string().min(1).max(64);

/** One event of the live feed: the `data:` of an SSE event, the body of a WebSocket `event` message. */
export const feedEventSchema = z.object({
  id: z.string().describe('The event id, its cursor (Last-Event-ID / last_event_id)'),
  type: z.enum([...FEED_RECORD_TYPES, ...FEED_META_TYPES]),
  base_id: z.string(),
  table_id: z.string(),
  table_name: z.string(),
  at: z.string().describe('ISO time of the change'),
  actor: z.union([z.object({ id: z.string(), email: z.string() }), z.object({ token_id: z.string() }), z.object({})]),
  rows: z.array(z.record(z.string(), z.unknown())).optional().describe('Records as the records API reads them'),
  previous_rows: z.array(z.record(z.string(), z.unknown())).optional().describe('Update and delete: the records before the change'),
  column_id: z.string().optional(),
  column_name: z.string().optional(),
});
export type FeedEvent = z.infer<typeof feedEventSchema>;

/** The query of a stream: the records `where` language, the fields to send, the resume cursor, a ticket. */
export const feedQuery = z.object({
  where: z.string().max(10_000).optional().describe('Records `where` language: only record events whose new or previous row matches'),
  fields: z.union([z.string(), z.array(z.string())]).optional().describe('Comma-separated field titles sent in rows'),
  last_event_id: z.string().max(64).optional().describe('Resume after this event id (or the Last-Event-ID header)'),
  ticket: z.string().max(128).optional().describe('Single-use ticket of POST /api/v1/events/tickets (browsers\' EventSource)'),
}).strict();

const SSE_EXAMPLE = 'id: 42\nevent: records.after.insert\ndata: {"id":"42","type":"records.after.insert","base_id":"p1","table_id":"m1","table_name":"Items","at":"2026-01-01T00:00:00.000Z","actor":{"id":"us1","email":"me@example.com"},"rows":[{"Id":1,"Title":"a"}]}\n\n: ping\n\n';

const streamDescription = 'A Server-Sent Events stream (`Accept: text/event-stream`). Each event: `id:` (its cursor), `event:` its type, `data:` one JSON object (FeedEvent). '
  + 'Resume with `Last-Event-ID` or `last_event_id`; an id older than SVC_FEED_RETENTION gets one `event: reset`. `: ping` every SVC_FEED_HEARTBEAT_MS. '
  + 'When access ends the stream sends `event: revoked` (or `event: deleted`) and closes. 429 beyond SVC_FEED_MAX_STREAMS_PER_PRINCIPAL streams of the user across all replicas. Viewer and up; see docs/realtime.md.';

/** GET /api/v1/events/tables/{tableId}: one table's record changes, live. */
export const eventsTableStream = defineEndpoint({
  id: 'eventsTableStream', method: 'GET', path: '/api/v1/events/tables/{tableId}', service: 'realtime',
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'table', id: (i) => i.params.tableId }, ticket: true }, transport: 'stream',
  summary: 'Live record changes of a table (Server-Sent Events)', tags: ['Realtime'], description: streamDescription,
  params: z.object({ tableId: feedId }), query: feedQuery,
  response: z.string(), responseContentType: 'text/event-stream', errors: [403, 404, 429],
  example: { response: SSE_EXAMPLE },
});

/** GET /api/v1/events/bases/{baseId}: every table's record changes of a base, with table and column changes. */
export const eventsBaseStream = defineEndpoint({
  id: 'eventsBaseStream', method: 'GET', path: '/api/v1/events/bases/{baseId}', service: 'realtime',
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'base', id: (i) => i.params.baseId }, ticket: true }, transport: 'stream',
  summary: 'Live record, table and column changes of a base (Server-Sent Events)', tags: ['Realtime'], description: streamDescription,
  params: z.object({ baseId: feedId }), query: feedQuery,
  response: z.string(), responseContentType: 'text/event-stream', errors: [403, 404, 429],
  example: { response: SSE_EXAMPLE },
});

/** POST /api/v1/events/tickets: a single-use, 60 s ticket for one stream (EventSource cannot send headers). */
export const eventsTicketCreate = defineEndpoint({
  id: 'eventsTicketCreate', method: 'POST', path: '/api/v1/events/tickets', service: 'realtime',
  // The scope is the body: a table (its base) or a base; the realtime service's base resolver reads either.
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'base', id: (i) => i.body } },
  summary: 'A single-use ticket opening one stream (valid 60 s)', tags: ['Realtime'],
  description: 'Body `{ "table_id" }` or `{ "base_id" }`; the ticket is bound to the caller and that scope. Viewer and up on the base; another tenant\'s id answers 404.',
  body: z.union([z.object({ table_id: feedId }).strict(), z.object({ base_id: feedId }).strict()]),
  response: z.object({ ticket: z.string(), expires_at: z.string() }), errors: [403, 404],
  example: { request: { table_id: 'm1' }, response: { ticket: 'tk_0123456789abcdef', expires_at: '2026-01-01T00:01:00.000Z' } },
});

/** What a WebSocket client sends: subscribe to a table or base (optionally filtered, resumed), or unsubscribe. */
export const feedSocketClientMessage = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('subscribe'),
    table_id: feedId.optional(), base_id: feedId.optional(),
    where: z.string().max(10_000).optional().describe('Records `where` language, as on the SSE streams'),
    fields: z.union([z.string(), z.array(z.string())]).optional().describe('Field titles sent in rows'),
    last_event_id: z.string().max(64).optional().describe('Resume after this event id'),
    ref: z.string().max(64).optional().describe('Echoed in the answer (`subscribed` or `error`), to match it with its request'),
  }).strict().refine((m) => (m.table_id === undefined) !== (m.base_id === undefined), { message: 'Give exactly one of table_id and base_id' }),
  z.object({ op: z.literal('unsubscribe'), subscription: z.string().min(1).max(64), ref: z.string().max(64).optional() }).strict(),
]);
export type FeedSocketClientMessage = z.infer<typeof feedSocketClientMessage>;

/** What the server sends on a WebSocket. */
export const feedSocketServerMessage = z.union([
  z.object({ op: z.literal('subscribed'), subscription: z.string(), ref: z.string().optional() }),
  z.object({ op: z.literal('unsubscribed'), subscription: z.string(), ref: z.string().optional() }),
  feedEventSchema.extend({ op: z.literal('event'), subscription: z.string() }).describe('One event: the same object as an SSE event\'s data, with op and subscription'),
  z.object({ op: z.literal('reset'), subscription: z.string() }).describe('The resume id is older than the retained log: reload'),
  z.object({
    op: z.literal('closed'), subscription: z.string(), reason: z.enum(['revoked', 'deleted', 'overflow', 'reconnect']),
    last_event_id: z.string().nullable(),
  }).describe('The server ended a subscription (access ended, the table or base was deleted, a slow consumer, a restart: resume with last_event_id)'),
  z.object({
    op: z.literal('error'), ref: z.string().optional(), subscription: z.string().optional(), status: z.number(),
    error: z.string(), message: z.string(), msg: z.string(),
  }).describe('A refused message: 400 bad message, 404 missing (or another tenant\'s) table or base, 403, 429 beyond the cap'),
]);
export type FeedSocketServerMessage = z.infer<typeof feedSocketServerMessage>;

/** GET /api/v1/events/ws: a WebSocket carrying many table and base subscriptions. */
export const eventsSocket = defineEndpoint({
  id: 'eventsSocket', method: 'GET', path: '/api/v1/events/ws', service: 'realtime',
  // Who may open the socket; each subscription is then checked as its stream would be (data.read on its base).
  auth: { callers: USERS, ticket: true }, transport: 'websocket',
  summary: 'Live changes of many tables and bases over one WebSocket', tags: ['Realtime'],
  description: 'An HTTP Upgrade to a WebSocket (a plain request answers 426). Authenticated as the streams: `xc-auth`, `xc-token` or `Authorization: Bearer`, or `?ticket=` '
    + '(POST /api/v1/events/tickets; the ticket authenticates the socket, each subscription is checked on its own). '
    + 'Client messages: `{"op":"subscribe","table_id"|"base_id","where"?,"fields"?,"last_event_id"?,"ref"?}` → `{"op":"subscribed","subscription"}`, then '
    + '`{"op":"event","subscription",…FeedEvent}`; `{"op":"unsubscribe","subscription"}` → `{"op":"unsubscribed"}`. A subscription of a table or base the caller may not read '
    + 'answers `{"op":"error","status":404}` like a missing one; subscriptions count against SVC_FEED_MAX_STREAMS_PER_PRINCIPAL (429). When access ends: '
    + '`{"op":"closed","reason":"revoked"|"deleted"}`; a sign-out or revoked token closes the socket (code 4001). A slow client (SVC_FEED_BUFFER_BYTES unsent) '
    + 'gets `closed` with reason `overflow` and its last delivered id for each subscription, and the socket closes (code 4008). '
    + 'The server pings every SVC_FEED_HEARTBEAT_MS: a client that answers none of 2 pings is dropped. See docs/realtime.md.',
  query: z.object({ ticket: z.string().max(128).optional().describe('Single-use ticket (browsers\' WebSocket sends no headers)') }).strict(),
  response: z.string(), status: 101, errors: [404, 426, 429],
  messages: { client: feedSocketClientMessage, server: feedSocketServerMessage },
  example: { response: '' },
});

/** The realtime service's public endpoints. */
export const realtimeEndpoints = { eventsTableStream, eventsBaseStream, eventsTicketCreate, eventsSocket };
