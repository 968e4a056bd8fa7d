import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { META_SCHEMA } from './meta-db';

/** A row of meta.views. */
export class ViewModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.views`;
  static override jsonColumns = ['meta', 'details'];

  declare id: string;
  declare fk_model_id: string;
  declare base_id: string;
  declare title: string;
  declare type: 'grid' | 'form' | 'gallery' | 'kanban' | 'calendar' | 'map';
  declare is_default: boolean;
  declare order: number | null;
  declare meta: Record<string, unknown> | null;
  /** The kind's own settings (form heading, kanban grouping column, calendar range, grid row height…). */
  declare details?: Record<string, unknown> | null;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of meta.views. */
export type ViewRow = RowOf<ViewModel>;

/** A row of meta.view_columns. */
export class ViewColumnModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.view_columns`;
  static override jsonColumns = ['details'];

  declare id: string;
  declare fk_view_id: string;
  declare fk_column_id: string;
  declare show: boolean;
  declare order: number | null;
  /** A grid column's width (`200px`). */
  declare width?: string | null;
  /** A form field's label, help, description and required flag. */
  declare details?: Record<string, unknown> | null;
}

/** A row of meta.view_columns. */
export type ViewColumnRow = RowOf<ViewColumnModel>;

/** Inserts a view. */
export async function insertView(db: Knex, row: Partial<ViewRow>): Promise<void> {
  await ViewModel.query(db).insert({ ...row, meta: row.meta ? row.meta : null });
}

/** Inserts view columns. */
export async function insertViewColumns(db: Knex, rows: ViewColumnRow[]): Promise<void> {
  if (rows.length) await ViewColumnModel.query(db).insert(rows);
}

/** The views of tables, in order. */
export async function listViewsOf(db: Knex, tableIds: string[]): Promise<ViewRow[]> {
  if (!tableIds.length) return [];
  return ViewModel.query(db).whereIn('fk_model_id', tableIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** One view. */
export async function findView(db: Knex, id: string): Promise<ViewRow | undefined> {
  return ViewModel.query(db).where({ id }).first();
}

/** The column settings of views. */
export async function listViewColumns(db: Knex, viewIds: string[]): Promise<ViewColumnRow[]> {
  if (!viewIds.length) return [];
  return ViewColumnModel.query(db).whereIn('fk_view_id', viewIds).orderBy('order');
}

/** Next order position of a table's views. */
export async function nextViewOrder(db: Knex, tableId: string): Promise<number> {
  const row = await ViewModel.query(db).where({ fk_model_id: tableId }).max('order as max').first() as unknown as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}

/** The ids of a table's views. */
export async function viewIdsOf(db: Knex, tableId: string): Promise<string[]> {
  return (await ViewModel.query(db).where({ fk_model_id: tableId }).select('id')).map((v) => v.id);
}

/** Updates a view's fields. */
export async function updateView(db: Knex, id: string, patch: Partial<ViewRow>): Promise<void> {
  await ViewModel.query(db).where({ id }).patch(patch);
}

/** Deletes a view (its columns, sorts and filters cascade). */
export async function deleteView(db: Knex, id: string): Promise<void> {
  await ViewModel.query(db).where({ id }).delete();
}

/** Deletes the column settings of a view. */
export async function deleteViewColumns(db: Knex, viewId: string): Promise<void> {
  await ViewColumnModel.query(db).where({ fk_view_id: viewId }).delete();
}

/** One column setting of a view, by its id or by the column's id. */
export async function findViewColumn(db: Knex, viewId: string, id: string): Promise<ViewColumnRow | undefined> {
  return ViewColumnModel.query(db).where({ fk_view_id: viewId }).where((q) => q.where({ id }).orWhere({ fk_column_id: id })).first();
}

/** One column setting by its id (any view). */
export async function findViewColumnById(db: Knex, id: string): Promise<ViewColumnRow | undefined> {
  return ViewColumnModel.query(db).where({ id }).first();
}

/** Changes one column setting of a view. */
export async function updateViewColumn(db: Knex, id: string, patch: Partial<ViewColumnRow>): Promise<void> {
  await ViewColumnModel.query(db).where({ id }).patch(patch);
}

/** Shows or hides every column of a view but those listed (by column id). */
export async function setViewColumnsShown(db: Knex, viewId: string, show: boolean, exceptColumnIds: string[]): Promise<void> {
  const q = ViewColumnModel.query(db).where({ fk_view_id: viewId });
  if (exceptColumnIds.length) q.whereNotIn('fk_column_id', exceptColumnIds);
  await q.patch({ show });
}
