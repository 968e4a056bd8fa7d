import { withOutbox } from '@tabula/events';
import { errors } from '@tabula/http';
import type { CommentShape } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import type { CommentsPorts } from '../../ports';
import { updateComment, type CommentRow } from '../../repositories/comment.repository';
import { enqueueCommentEvent } from '../../events/comment-event.producer';
import { presentComment } from '../../presenters/comment.presenter';
import { assertAuthor, assertMayWrite, commentNotFound, isCommentAdmin, requireComment } from './comment-access';

/** Replaces the text (author only, commenter and up); sets `is_edited`. */
export async function editComment(
  ports: CommentsPorts, principal: Principal, commentId: string, input: { comment: string; tableId?: string },
): Promise<CommentShape> {
  const { comment, role } = await requireComment(ports, principal, commentId);
  if (input.tableId !== undefined && input.tableId !== comment.fk_model_id) {
    throw errors.badRequest(`fk_model_id: comment '${commentId}' belongs to another table`);
  }
  assertMayWrite(role);
  assertAuthor(principal, comment, 'edit');
  const row = await withOutbox(ports.db, ports.relay, async (trx) => {
    const updated = await updateComment(trx, comment.base_id, comment.id, { comment: input.comment, is_edited: true });
    if (!updated) throw commentNotFound(commentId);
    await enqueueCommentEvent(trx, 'updated', updated, principal);
    return updated;
  });
  return presentComment(row);
}

/** Soft-deletes (the author, commenter and up; or an admin: creator, owner, super). */
export async function deleteComment(ports: CommentsPorts, principal: Principal, commentId: string): Promise<{ success: boolean }> {
  const { comment, role } = await requireComment(ports, principal, commentId);
  assertMayWrite(role);
  if (!isCommentAdmin(role)) assertAuthor(principal, comment, 'delete');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const deleted = await updateComment(trx, comment.base_id, comment.id, { is_deleted: true });
    if (!deleted) throw commentNotFound(commentId);
    await enqueueCommentEvent(trx, 'deleted', deleted, principal);
  });
  return { success: true };
}

/**
 * Resolves (or, with `resolved: false`, unresolves) a comment: creator, owner
 * or super. Idempotent: asking for the state it already has changes nothing
 * and publishes nothing.
 */
export async function resolveComment(ports: CommentsPorts, principal: Principal, commentId: string, resolved: boolean): Promise<CommentShape> {
  const { comment, role } = await requireComment(ports, principal, commentId);
  if (!isCommentAdmin(role)) throw errors.forbidden(`Forbidden - role '${role}' may not perform 'comment.resolve'`);
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
