import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enqueueEvent } from '@tabula/events';
import { CommentChangedSchema, encodeEvent, timestampNow, topics } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import { COMMENTS_SCHEMA } from '../ports';
import type { CommentRow } from '../repositories/comment.repository';

/** What happened to a comment (bus type `comments.comment.<kind>`). */
export type CommentEventKind = 'created' | 'updated' | 'deleted' | 'resolved';

/**
 * Enqueues `comments.comment.<kind>` (topic `tabula.comments`, key = table id)
 * in the caller's transaction: it is published exactly when the change commits.
 */
export async function enqueueCommentEvent(trx: Knex, kind: CommentEventKind, row: CommentRow, principal?: Principal): Promise<string> {
  const eventId = randomUUID();
  const type = `comments.comment.${kind}`;
  const payload = encodeEvent(CommentChangedSchema, {
    eventId, type, commentId: row.id, baseId: row.base_id, sourceId: row.source_id, tableId: row.fk_model_id, rowId: row.row_id,
    parentCommentId: row.parent_comment_id ?? undefined, comment: kind === 'deleted' ? '' : row.comment,
    author: { id: row.created_by, email: row.created_by_email },
    user: principal?.kind === 'user' ? { id: principal.id, email: principal.email ?? '' } : undefined,
    resolved: !!row.resolved_by, occurredAt: timestampNow(),
  });
  return enqueueEvent(trx, COMMENTS_SCHEMA, { id: eventId, topic: topics.comments, key: row.fk_model_id, type, payload });
}
