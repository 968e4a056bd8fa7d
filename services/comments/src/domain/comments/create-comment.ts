import { withOutbox } from '@tabula/events';
import { appError, errors } from '@tabula/http';
import type { CommentShape } from '@tabula/contracts';
import type { Knex } from 'knex';
import type { CommentsPorts } from '../../ports';
import type { TableScope } from '../../adapters/table-directory';
import { findLiveCommentIn, insertComment, type CommentRow } from '../../repositories/comment.repository';
import { isPurged, lockScope } from '../../repositories/purge.repository';
import { enqueueCommentEvent } from '../../events/comment-event.producer';
import { presentComment } from '../../presenters/comment.presenter';
import type { TableInScope } from './comment-access';
import { newCommentId } from './comment-id';

/** A new comment as the routes hand it over. */
export interface CreateCommentInput {
  rowId: string;
  comment: string;
  parentCommentId?: string | null;
}

/** The parent of a reply must be a live comment of the same record. */
async function checkParent(trx: Knex, table: TableScope, rowId: string, parentId: string): Promise<void> {
  const parent = await findLiveCommentIn(trx, table.baseId, parentId);
  if (!parent) throw appError('ERR_COMMENT_NOT_FOUND', `Parent comment '${parentId}' not found`);
  if (parent.fk_model_id !== table.tableId || parent.row_id !== rowId) {
    throw errors.badRequest(`parent_comment_id: comment '${parentId}' belongs to another record`);
  }
}

/**
 * Comments a record (the contract admits commenter and up). The table comes from meta, the
 * record's existence from data; the row, its parent check and the
 * `comments.comment.created` event commit together, under a shared lock that
 * a purge of the table or base waits for.
 */
export async function createComment(ports: CommentsPorts, scope: TableInScope, input: CreateCommentInput): Promise<CommentShape> {
  const { value: table, principal } = scope;
  const rowId = await ports.records.canonicalId(table, input.rowId);
  const row = await withOutbox(ports.db, ports.relay, async (trx) => {
    await lockScope(trx, table.tableId, 'shared');
    await lockScope(trx, table.baseId, 'shared');
    if (await isPurged(trx, [table.tableId, table.baseId])) throw appError('ERR_TABLE_NOT_FOUND', `Table '${table.tableId}' not found`);
    if (input.parentCommentId) await checkParent(trx, table, rowId, input.parentCommentId);
    const created: CommentRow = await insertComment(trx, {
      id: newCommentId(), base_id: table.baseId, fk_workspace_id: table.workspaceId, source_id: table.sourceId,
      fk_model_id: table.tableId, row_id: rowId, comment: input.comment, parent_comment_id: input.parentCommentId ?? null,
      created_by: principal.id, created_by_email: principal.email ?? '',
    });
    await enqueueCommentEvent(trx, 'created', created, principal);
    return created;
  });
  return presentComment(row);
}
