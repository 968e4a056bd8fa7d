import { withOutbox } from '@tabula/events';
import { errors } from '@tabula/http';
import type { CommentShape } from '@tabula/contracts';
import type { CommentsPorts } from '../../ports';
import { updateComment, type CommentRow } from '../../repositories/comment.repository';
import { enqueueCommentEvent } from '../../events/comment-event.producer';
import { presentComment } from '../../presenters/comment.presenter';
import { assertAuthor, commentNotFound, isCommentAdmin, type CommentInScope } from './comment-access';

/** Replaces the text (the author; the contract admits commenter and up); sets `is_edited`. */
export async function editComment(ports: CommentsPorts, scope: CommentInScope, input: { comment: string; tableId?: string }): Promise<CommentShape> {
  const { value: comment, principal } = scope;
  const commentId = comment.id;
  if (input.tableId !== undefined && input.tableId !== comment.fk_model_id) {
    throw errors.badRequest(`fk_model_id: comment '${commentId}' belongs to another table`);
  }
  assertAuthor(principal, comment, 'edit');
  const row = await withOutbox(ports.db, ports.relay, async (trx) => {
    const updated = await updateComment(trx, comment.base_id, comment.id, { comment: input.comment, is_edited: true });
    if (!updated) throw commentNotFound(commentId);
    await enqueueCommentEvent(trx, 'updated', updated, principal);
    return updated;
  });
  return presentComment(row);
}

/** Soft-deletes (the author; or an admin: creator, owner, super). */
export async function deleteComment(ports: CommentsPorts, scope: CommentInScope): Promise<{ success: boolean }> {
  const { value: comment, principal } = scope;
  const commentId = comment.id;
  if (!isCommentAdmin(scope)) assertAuthor(principal, comment, 'delete');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const deleted = await updateComment(trx, comment.base_id, comment.id, { is_deleted: true });
    if (!deleted) throw commentNotFound(commentId);
    await enqueueCommentEvent(trx, 'deleted', deleted, principal);
  });
  return { success: true };
}

/**
 * Resolves (or, with `resolved: false`, unresolves) a comment (the contract
 * admits creator, owner or super). Idempotent: asking for the state it already has changes nothing
 * and publishes nothing.
 */
export async function resolveComment(ports: CommentsPorts, scope: CommentInScope, resolved: boolean): Promise<CommentShape> {
  const { value: comment, principal } = scope;
  const commentId = comment.id;
  if (!!comment.resolved_by === resolved) return presentComment(comment);
  const patch: Partial<CommentRow> = resolved
    ? { resolved_by: principal.id, resolved_by_email: principal.email ?? '' }
    : { resolved_by: null, resolved_by_email: null };
  const row = await withOutbox(ports.db, ports.relay, async (trx) => {
    const updated = await updateComment(trx, comment.base_id, comment.id, patch);
    if (!updated) throw commentNotFound(commentId);
    await enqueueCommentEvent(trx, 'resolved', updated, principal);
    return updated;
  });
  return presentComment(row);
}
