import { handleOnce } from '@tabula/events';
import { AppError } from '@tabula/http';
import { COMMENTS_SCHEMA, type CommentsPorts } from '../../ports';
import type { TableScope } from '../../adapters/table-directory';
import { softDeleteByRows } from '../../repositories/comment.repository';
import { enqueueCommentEvent } from '../../events/comment-event.producer';
import { COMMENTS_CONSUMER } from './purge-scope';

type Row = Record<string, unknown>;

/** The `{rowId}` of an event row (keyed by column title), as the records API writes it. */
export function rowIdOfEventRow(primaryKeys: TableScope['primaryKeys'], row: Row): string | undefined {
  const parts = primaryKeys.map((pk) => row[pk.title] ?? row[pk.column_name]);
  if (!parts.length || parts.some((p) => p === undefined || p === null)) return undefined;
  if (parts.length === 1) return String(parts[0]);
  return parts.map((p) => String(p).replace(/_/g, '\\_')).join('___');
}

/**
 * Records were deleted: their live comments are soft-deleted (with a
 * `comments.comment.deleted` event each), once per event id. A table that is
 * already gone needs nothing: its purge removes everything.
 */
export async function softDeleteRecordComments(ports: CommentsPorts, evt: { eventId: string; tableId: string; rows: Row[] }): Promise<number> {
  let table: TableScope;
  try {
    table = await ports.tables.get(evt.tableId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return 0;
    throw err;
  }
  const rowIds = [...new Set(evt.rows.map((r) => rowIdOfEventRow(table.primaryKeys, r)).filter((id): id is string => id !== undefined))];
  ports.records.forget(evt.tableId);
  if (!rowIds.length) return 0;
  let deleted = 0;
  await handleOnce(ports.db, COMMENTS_SCHEMA, COMMENTS_CONSUMER, evt.eventId, async (trx) => {
    const rows = await softDeleteByRows(trx, evt.tableId, rowIds);
    for (const row of rows) await enqueueCommentEvent(trx, 'deleted', row);
    deleted = rows.length;
  });
  if (deleted) await ports.relay.nudge();
  return deleted;
}
