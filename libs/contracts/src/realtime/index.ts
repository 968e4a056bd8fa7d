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
  + 'When access ends the stream sends `event: revoked` (or `event: deleted`) and closes. 429 beyond SVC_FEED_MAX_STREAMS_PER_PRINCIPAL streams. Viewer and up; see docs/realtime.md.';

/** GET /api/v1/events/tables/{tableId}: one table's record changes, live. */
export const eventsTableStream = defineEndpoint({
  id: 'eventsTableStream', method: 'GET', path: '/api/v1/events/tables/{tableId}', service: 'realtime',
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'table', id: (i) => i.params.tableId } },
  summary: 'Live record changes of a table (Server-Sent Events)', tags: ['Realtime'], description: streamDescription,
  params: z.object({ tableId: feedId }), query: feedQuery,
  response: z.string(), responseContentType: 'text/event-stream', errors: [403, 404, 429],
  example: { response: SSE_EXAMPLE },
});

/** GET /api/v1/events/bases/{baseId}: every table's record changes of a base, with table and column changes. */
export const eventsBaseStream = defineEndpoint({
  id: 'eventsBaseStream', method: 'GET', path: '/api/v1/events/bases/{baseId}', service: 'realtime',
  auth: { callers: USERS, permission: 'data.read', scope: { via: 'base', id: (i) => i.params.baseId } },
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

/** The realtime service's public endpoints. */
export const realtimeEndpoints = { eventsTableStream, eventsBaseStream, eventsTicketCreate };
