import { AppError, appError, errors } from '@tabula/http';
import { roleAllows, roleAtLeast, type BaseAction, type BaseRole, type Principal } from '@tabula/auth';
import type { CommentsPorts } from '../../ports';
import type { TableScope } from '../../adapters/table-directory';
import { findLiveComment, type CommentRow } from '../../repositories/comment.repository';

/** 404 of a comment id (also for another base's comment: no existence leak). */
export function commentNotFound(id: string): AppError {
  return appError('ERR_COMMENT_NOT_FOUND', `Comment '${id}' not found`);
}

/**
 * The table after checking the caller may perform `action` in its base: an
 * unknown table and a table of a base the caller has no role in (another
 * tenant, another base's token) are the same 404; a member whose role lacks
 * the action gets 403.
 */
export async function requireTable(ports: CommentsPorts, principal: Principal, tableId: string, action: BaseAction): Promise<TableScope> {
  const table = await ports.tables.get(tableId);
  const role = await ports.baseAccess.roleOf(principal, table.baseId);
  if (!role) throw appError('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
  await ports.baseAccess.authorize(principal, table.baseId, action);
  return table;
}

/** A live comment and the caller's role in its base. */
export interface CommentInScope {
  comment: CommentRow;
  role: BaseRole;
}

/**
 * Loads a live comment the caller can see: a deleted comment, a comment of a
 * base the caller has no role in (or a base-scoped token for another base)
 * are all the same 404.
 */
export async function requireComment(ports: CommentsPorts, principal: Principal, commentId: string): Promise<CommentInScope> {
  const comment = await findLiveComment(ports.db, commentId);
  if (!comment) throw commentNotFound(commentId);
  const role = await ports.baseAccess.roleOf(principal, comment.base_id);
  if (!role || !roleAllows(role, 'comment.read')) throw commentNotFound(commentId);
  return { comment, role };
}

/** Writing needs commenter and up. */
export function assertMayWrite(role: BaseRole): void {
  if (!roleAllows(role, 'comment.write')) throw errors.forbidden(`Forbidden - role '${role}' may not perform 'comment.write'`);
}

/** Only the author edits. */
export function assertAuthor(principal: Principal, comment: CommentRow, verb: 'edit' | 'delete'): void {
  if (comment.created_by !== principal.id) throw errors.forbidden(`Forbidden - only the author may ${verb} this comment`);
}

/** Admins (base creator, owner; super acts as owner) manage every comment. */
export function isCommentAdmin(role: BaseRole): boolean {
  return roleAtLeast(role, 'creator');
}
