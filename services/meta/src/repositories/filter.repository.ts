import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { META_SCHEMA } from './meta-db';

/** A row of meta.filters. */
export class FilterModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.filters`;
  static override jsonValueColumns = ['value'];

  declare id: string;
  declare fk_view_id: string | null;
  declare fk_hook_id: string | null;
  declare fk_parent_id: string | null;
  declare fk_column_id: string | null;
  declare base_id: string;
  declare comparison_op: string | null;
  declare comparison_sub_op: string | null;
  declare value: unknown;
  declare logical_op: 'and' | 'or' | 'not' | null;
  declare is_group: boolean;
  declare order: number | null;
}

/** A row of meta.filters. */
export type FilterRow = RowOf<FilterModel>;

/** The filters of views (every level), by order. */
export async function listFiltersOfViews(db: Knex, viewIds: string[]): Promise<FilterRow[]> {
  if (!viewIds.length) return [];
  return FilterModel.query(db).whereIn('fk_view_id', viewIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** The direct children of a filter group. */
export async function listChildren(db: Knex, parentId: string): Promise<FilterRow[]> {
  return FilterModel.query(db).where({ fk_parent_id: parentId }).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** One filter. */
export async function findFilter(db: Knex, id: string): Promise<FilterRow | undefined> {
  return FilterModel.query(db).where({ id }).first();
}

/** Inserts a filter. */
export async function insertFilter(db: Knex, row: FilterRow): Promise<void> {
  await FilterModel.query(db).insert({ ...row, value: row.value ?? null });
}

/** Updates a filter. */
export async function updateFilter(db: Knex, id: string, patch: Partial<FilterRow>): Promise<void> {
  await FilterModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() } as Partial<FilterRow>);
}

/** Deletes a filter (children cascade). */
export async function deleteFilter(db: Knex, id: string): Promise<void> {
  await FilterModel.query(db).where({ id }).delete();
}

/** Next order among siblings. */
export async function nextFilterOrder(db: Knex, viewId: string, parentId: string | null): Promise<number> {
  const row = await FilterModel.query(db).where({ fk_view_id: viewId, fk_parent_id: parentId })
    .max('order as max').first() as unknown as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}
