import type { CommentShape } from '@tabula/contracts';
import type { CommentRow } from '../repositories/comment.repository';

const iso = (value: Date | string): string => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

/** A stored comment as the API returns it (the spec's Comment fields). */
export function presentComment(row: CommentRow): CommentShape {
  return {
    id: row.id, fk_model_id: row.fk_model_id, row_id: row.row_id, comment: row.comment,
    parent_comment_id: row.parent_comment_id ?? null, source_id: row.source_id, fk_workspace_id: row.fk_workspace_id ?? null,
    base_id: row.base_id, created_by: row.created_by, created_by_email: row.created_by_email,
    resolved_by: row.resolved_by ?? null, resolved_by_email: row.resolved_by_email ?? null,
    is_deleted: row.is_deleted, is_edited: row.is_edited, created_at: iso(row.created_at), updated_at: iso(row.updated_at),
  };
}
