import type { Timestamp } from '@bufbuild/protobuf/wkt';
import {
  BaseChangedSchema, ChangeAction, ColumnChangedSchema, decodeEvent, decodeRecordsChanged, TableChangedSchema, timestampDate, topics,
  type RecordsChangedFields,
} from '@tabula/contracts';
import { defineConsumer, type EventMessage } from '@tabula/events';
import type { RealtimePorts } from '../ports';
import { appendFeedEvents, type FeedAppend } from '../repositories/feed.repository';

const ACTIONS: Record<number, string> = { [ChangeAction.CREATED]: 'created', [ChangeAction.UPDATED]: 'updated', [ChangeAction.DELETED]: 'deleted' };

/** Who made the change: `{ token_id }` for a write authenticated by an API token, the user `{ id, email }` for a session, `{}` for the system. */
function actorOf(user: RecordsChangedFields['user']): { id: string; email: string } | { token_id: string } | Record<string, never> {
  if (user?.tokenId) return { token_id: user.tokenId };
  return user?.id ? { id: user.id, email: user.email } : {};
}

/** A Timestamp (a message's, or the hand-decoded one of a records event, which timestampDate reads alike) as ISO text; now when absent. */
function isoOf(at: RecordsChangedFields['occurredAt']): string {
  return (at ? timestampDate(at as Timestamp) : new Date()).toISOString();
}

function parseRows(json: string): Record<string, unknown>[] | undefined {
  if (!json) return undefined;
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? parsed as Record<string, unknown>[] : undefined;
}

/** The feed entry of a bus event, or undefined for events the feed does not carry. */
export function feedEntryOf(message: EventMessage): FeedAppend | undefined {
  if (message.type.startsWith('records.after.')) {
    const e = decodeRecordsChanged(message.payload);
    const rows = parseRows(e.rowsJson) ?? [];
    const previous = parseRows(e.previousRowsJson);
    const type = e.type || message.type;
    return {
      eventId: message.id, type, baseId: e.baseId, tableId: e.tableId,
      data: {
        type: type as never, base_id: e.baseId, table_id: e.tableId, table_name: e.tableTitle, at: isoOf(e.occurredAt), actor: actorOf(e.user),
        rows: type === 'records.after.delete' ? previous ?? rows : rows,
        ...(type !== 'records.after.insert' ? { previous_rows: previous ?? [] } : {}),
      },
    };
  }
  if (message.type.startsWith('meta.table.')) {
    const e = decodeEvent(TableChangedSchema, message.payload);
    const type = `meta.table.${ACTIONS[e.action] ?? message.type.slice('meta.table.'.length)}`;
    return {
      eventId: message.id, type, baseId: e.baseId, tableId: e.tableId,
      data: { type: type as never, base_id: e.baseId, table_id: e.tableId, table_name: e.tableTitle, at: isoOf(e.occurredAt), actor: actorOf(e.user) },
    };
  }
  if (message.type.startsWith('meta.column.')) {
    const e = decodeEvent(ColumnChangedSchema, message.payload);
    const type = `meta.column.${ACTIONS[e.action] ?? message.type.slice('meta.column.'.length)}`;
    return {
      eventId: message.id, type, baseId: e.baseId, tableId: e.tableId,
      data: {
        type: type as never, base_id: e.baseId, table_id: e.tableId, table_name: '', at: isoOf(e.occurredAt), actor: actorOf(e.user),
        column_id: e.columnId, column_name: e.columnTitle,
      },
    };
  }
  if (message.type === 'meta.base.deleted') {
    const e = decodeEvent(BaseChangedSchema, message.payload);
    // Never sent as an event: it ends the base's streams (event: deleted).
    return {
      eventId: message.id, type: message.type, baseId: e.baseId, tableId: '',
      data: { type: message.type as never, base_id: e.baseId, table_id: '', table_name: '', at: isoOf(e.occurredAt), actor: actorOf(e.user) },
    };
  }
  return undefined;
}

/**
 * Appends record and meta events to the feed log (realtime.feed): one shared
 * group, so each event is appended once per deployment whatever the replicas;
 * the event id dedupes redeliveries. The hubs of every replica tail the log
 * (this replica's takes the rows it appended without reading them back).
 */
export const feedLogConsumer = defineConsumer<RealtimePorts>({
  name: 'realtime.feed-log',
  topics: [topics.records, topics.meta],
  delivery: { kind: 'shared', group: 'realtime.feed-log' },
  async handle(ports, message) {
    const entry = feedEntryOf(message);
    if (!entry) return;
    await ports.hub.append(() => appendFeedEvents(ports.db, [entry]));
  },
  async handleBatch(ports, messages) {
    const entries = messages.map(feedEntryOf).filter((e): e is FeedAppend => e !== undefined);
    await ports.hub.append(() => appendFeedEvents(ports.db, entries));
  },
});
