import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { META_SCHEMA } from './meta-db';

/** A row of meta.sorts. */
export class SortModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.sorts`;

  declare id: string;
  declare fk_view_id: string;
  declare fk_column_id: string;
  declare direction: 'asc' | 'desc' | 'count-asc' | 'count-desc';
  declare order: number;
  declare fk_level_id: string | null;
}

/** A row of meta.sorts. */
export type SortRow = RowOf<SortModel>;

/** The sorts of views, by order. */
export async function listSorts(db: Knex, viewIds: string[]): Promise<SortRow[]> {
  if (!viewIds.length) return [];
  return SortModel.query(db).whereIn('fk_view_id', viewIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** One sort. */
export async function findSort(db: Knex, id: string): Promise<SortRow | undefined> {
  return SortModel.query(db).where({ id }).first();
}

/** Inserts a sort. */
export async function insertSort(db: Knex, row: SortRow): Promise<void> {
  await SortModel.query(db).insert(row);
}

/** Shifts every sort of a view down one place (push_to_top). */
export async function shiftSorts(db: Knex, viewId: string): Promise<void> {
  await SortModel.query(db).where({ fk_view_id: viewId }).increment('order', 1);
}

/** Next order of a view's sorts. */
export async function nextSortOrder(db: Knex, viewId: string): Promise<number> {
  const row = await SortModel.query(db).where({ fk_view_id: viewId }).max('order as max').first() as unknown as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}

/** Updates a sort. */
export async function updateSort(db: Knex, id: string, patch: Partial<SortRow>): Promise<void> {
  await SortModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() } as Partial<SortRow>);
}

/** Deletes a sort. */
export async function deleteSort(db: Knex, id: string): Promise<void> {
  await SortModel.query(db).where({ id }).delete();
}
