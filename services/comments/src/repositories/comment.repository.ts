import type { Knex } from 'knex';
import { COMMENTS_SCHEMA } from '../ports';

/** A row of `comments.comments`. */
export interface CommentRow {
  id: string;
  seq?: string;
  base_id: string;
  fk_workspace_id: string | null;
  source_id: string;
  fk_model_id: string;
  row_id: string;
  comment: string;
  parent_comment_id: string | null;
  created_by: string;
  created_by_email: string;
  resolved_by: string | null;
  resolved_by_email: string | null;
  is_deleted: boolean;
  is_edited: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A comment to insert. */
export type NewComment = Omit<CommentRow, 'seq' | 'is_deleted' | 'is_edited' | 'created_at' | 'updated_at' | 'resolved_by' | 'resolved_by_email'>;

const comments = (db: Knex) => db.withSchema(COMMENTS_SCHEMA).table<CommentRow>('comments');

/** Inserts a comment and returns the stored row. */
export async function insertComment(db: Knex, comment: NewComment): Promise<CommentRow> {
  const [row] = await comments(db).insert(comment).returning('*');
  return row as CommentRow;
}

/** A live comment by id (any base: the caller checks the base role before revealing it). */
export async function findLiveComment(db: Knex, id: string): Promise<CommentRow | undefined> {
  return comments(db).where({ id, is_deleted: false }).first();
}

/** A live comment of a base, table and record (a reply's parent). */
export async function findLiveCommentIn(db: Knex, baseId: string, id: string): Promise<CommentRow | undefined> {
  return comments(db).where({ id, base_id: baseId, is_deleted: false }).first();
}

/** Updates a live comment of a base; returns the new row (undefined when it was deleted meanwhile). */
export async function updateComment(db: Knex, baseId: string, id: string, patch: Partial<CommentRow>): Promise<CommentRow | undefined> {
  const [row] = await comments(db).where({ id, base_id: baseId, is_deleted: false })
    .update({ ...patch, updated_at: db.raw('clock_timestamp()') as unknown as Date }).returning('*');
  return row as CommentRow | undefined;
}

/** A page of a record's live comments, oldest first, and how many there are. */
export async function listLiveComments(
  db: Knex, scope: { baseId: string; tableId: string; rowId: string }, page: { limit: number; offset: number },
): Promise<{ rows: CommentRow[]; total: number }> {
  const where = { base_id: scope.baseId, fk_model_id: scope.tableId, row_id: scope.rowId, is_deleted: false };
  const [rows, [{ total }]] = await Promise.all([
    comments(db).where(where).orderBy([{ column: 'created_at' }, { column: 'seq' }]).limit(page.limit).offset(page.offset),
    comments(db).where(where).count<{ total: string }[]>({ total: '*' }),
  ]);
  return { rows: rows as CommentRow[], total: Number(total) };
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
  return (await comments(db).where({ fk_model_id: tableId, is_deleted: false }).whereRaw('row_id = ANY(?::text[])', [rowIds])
    .update({ is_deleted: true, updated_at: db.raw('clock_timestamp()') as unknown as Date }).returning('*')) as CommentRow[];
}

/** Removes every comment of a table or a base for good; returns how many. */
export function purgeComments(db: Knex, scope: { tableId?: string; baseId?: string }): Promise<number> {
  const q = comments(db);
  if (scope.tableId) q.where({ fk_model_id: scope.tableId });
  else if (scope.baseId) q.where({ base_id: scope.baseId });
  else throw new Error('purgeComments needs a table or a base');
  return q.delete();
}
