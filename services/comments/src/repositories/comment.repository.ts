import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { COMMENTS_SCHEMA } from '../ports';

/** A row of `comments.comments`. */
export class CommentModel extends BaseModel {
  static override tableName = `${COMMENTS_SCHEMA}.comments`;

  declare id: string;
  declare seq?: string;
  declare base_id: string;
  declare fk_workspace_id: string | null;
  declare source_id: string;
  declare fk_model_id: string;
  declare row_id: string;
  declare comment: string;
  declare parent_comment_id: string | null;
  declare created_by: string;
  declare created_by_email: string;
  declare resolved_by: string | null;
  declare resolved_by_email: string | null;
  declare is_deleted: boolean;
  declare is_edited: boolean;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of `comments.comments`. */
export type CommentRow = RowOf<CommentModel>;

/** A comment to insert. */
export type NewComment = Omit<CommentRow, 'seq' | 'is_deleted' | 'is_edited' | 'created_at' | 'updated_at' | 'resolved_by' | 'resolved_by_email'>;

/** Inserts a comment and returns the stored row. */
export async function insertComment(db: Knex, comment: NewComment): Promise<CommentRow> {
  return CommentModel.query(db).insert(comment).returning('*');
}

/** A live comment by id (any base: the caller checks the base role before revealing it). */
export async function findLiveComment(db: Knex, id: string): Promise<CommentRow | undefined> {
  return CommentModel.query(db).where({ id, is_deleted: false }).first();
}

/** A live comment of a base, table and record (a reply's parent). */
export async function findLiveCommentIn(db: Knex, baseId: string, id: string): Promise<CommentRow | undefined> {
  return CommentModel.query(db).where({ id, base_id: baseId, is_deleted: false }).first();
}

/** Updates a live comment of a base; returns the new row (undefined when it was deleted meanwhile). */
export async function updateComment(db: Knex, baseId: string, id: string, patch: Partial<CommentRow>): Promise<CommentRow | undefined> {
  const [row] = await CommentModel.query(db).where({ id, base_id: baseId, is_deleted: false })
    .patch({ ...patch, updated_at: db.raw('clock_timestamp()') as unknown as Date }).returning('*');
  return row;
}

/** A page of a record's live comments, oldest first, and how many there are. */
export async function listLiveComments(
  db: Knex, scope: { baseId: string; tableId: string; rowId: string }, page: { limit: number; offset: number },
): Promise<{ rows: CommentRow[]; total: number }> {
  const where = { base_id: scope.baseId, fk_model_id: scope.tableId, row_id: scope.rowId, is_deleted: false };
  const [rows, total] = await Promise.all([
    CommentModel.query(db).where(where).orderBy([{ column: 'created_at' }, { column: 'seq' }]).limit(page.limit).offset(page.offset),
    CommentModel.query(db).where(where).resultSize(),
  ]);
  return { rows, total };
}

/**
 * Live comments per record for every asked id, zeros included, in ONE
 * statement: the ids are unnested and each is counted by a probe of the
 * partial index `comments_live_by_row_idx` (an index-only scan), so the cost
 * follows the ids asked, not the size of the table.
 */
export async function countLiveComments(db: Knex, scope: { baseId: string; tableId: string }, rowIds: string[]): Promise<Record<string, number>> {
  const result = await db.raw<{ rows: { row_id: string; n: string }[] }>(
    `SELECT ids.row_id,
            (SELECT count(*) FROM ??.comments c
              WHERE c.fk_model_id = ? AND c.row_id = ids.row_id AND c.base_id = ? AND NOT c.is_deleted) AS n
       FROM unnest(?::text[]) AS ids(row_id)`,
    [COMMENTS_SCHEMA, scope.tableId, scope.baseId, rowIds],
  );
  return Object.fromEntries(result.rows.map((r) => [r.row_id, Number(r.n)]));
}

/**
 * Soft-deletes the live comments of some records; returns the rows deleted.
 * The ids go as one array parameter: a delete-all can name more records than
 * PostgreSQL accepts bind parameters (65,535).
 */
export async function softDeleteByRows(db: Knex, tableId: string, rowIds: string[]): Promise<CommentRow[]> {
  return CommentModel.query(db).where({ fk_model_id: tableId, is_deleted: false }).whereRaw('row_id = ANY(?::text[])', [rowIds])
    .patch({ is_deleted: true, updated_at: db.raw('clock_timestamp()') as unknown as Date }).returning('*');
}

/** Removes every comment of a table or a base for good; returns how many. */
export async function purgeComments(db: Knex, scope: { tableId?: string; baseId?: string }): Promise<number> {
  const q = CommentModel.query(db);
  if (scope.tableId) q.where({ fk_model_id: scope.tableId });
  else if (scope.baseId) q.where({ base_id: scope.baseId });
  else throw new Error('purgeComments needs a table or a base');
  return await q.delete();
}
