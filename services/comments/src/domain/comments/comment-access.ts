import { AppError, appError, errors, type AccessScope } from '@tabula/http';
import { roleAllows, type BaseRole, type Principal, type ScopeResolvers } from '@tabula/auth';
import type { CommentsPorts } from '../../ports';
import type { TableScope } from '../../adapters/table-directory';
import { findLiveComment, type CommentRow } from '../../repositories/comment.repository';

/** 404 of a comment id (also for another base's comment: no existence leak). */
export function commentNotFound(id: string): AppError {
  return appError('ERR_COMMENT_NOT_FOUND', `Comment '${id}' not found`);
}

/** A table the guard authorized (its base holds the declared permission). */
export type TableInScope = AccessScope<TableScope>;
/** A live comment the guard authorized, with the caller's role in its base. */
export type CommentInScope = AccessScope<CommentRow>;

/**
 * What the comments contracts are scoped by: a table (from meta, cached) and
 * a live comment (its base). The guard turns a caller without a role there
 * into the same 404 as a missing id.
 */
export function commentScopes(ports: CommentsPorts): ScopeResolvers {
  return {
    table: {
      missing: (id) => appError('ERR_TABLE_NOT_FOUND', `Table '${String(id)}' not found`),
      resolve: async (_principal, id) => {
        const table = await ports.tables.get(String(id));
        return { baseId: table.baseId, value: table };
      },
    },
    comment: {
      missing: (id) => commentNotFound(String(id)),
      resolve: async (_principal, id) => {
        const comment = await findLiveComment(ports.db, String(id));
        if (!comment) throw commentNotFound(String(id));
        return { baseId: comment.base_id, value: comment };
      },
    },
  };
}

/** Only the author edits. */
export function assertAuthor(principal: Principal, comment: CommentRow, verb: 'edit' | 'delete'): void {
  if (comment.created_by !== principal.id) throw errors.forbidden(`Forbidden - only the author may ${verb} this comment`);
}

/** Admins (those who may resolve: base creator, owner; super acts as owner) manage every comment. */
export function isCommentAdmin(scope: CommentInScope): boolean {
  return roleAllows(scope.role as BaseRole, 'comment.resolve');
}
