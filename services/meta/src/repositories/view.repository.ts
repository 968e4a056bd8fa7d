import type { Knex } from 'knex';
import { metaTable } from './meta-db';

/** A row of meta.views. */
export interface ViewRow {
  id: string;
  fk_model_id: string;
  base_id: string;
  title: string;
  type: 'grid' | 'form' | 'gallery' | 'kanban' | 'calendar' | 'map';
  is_default: boolean;
  order: number | null;
  meta: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** A row of meta.view_columns. */
export interface ViewColumnRow {
  id: string;
  fk_view_id: string;
  fk_column_id: string;
  show: boolean;
  order: number | null;
}

/** Inserts a view. */
export async function insertView(db: Knex, row: Partial<ViewRow>): Promise<void> {
  await metaTable(db, 'views').insert({ ...row, meta: row.meta ? JSON.stringify(row.meta) : null });
}

/** Inserts view columns. */
export async function insertViewColumns(db: Knex, rows: ViewColumnRow[]): Promise<void> {
  if (rows.length) await metaTable(db, 'view_columns').insert(rows);
}

/** The views of tables, in order. */
export async function listViewsOf(db: Knex, tableIds: string[]): Promise<ViewRow[]> {
  if (!tableIds.length) return [];
  return (await metaTable(db, 'views').whereIn('fk_model_id', tableIds).orderBy([{ column: 'order' }, { column: 'created_at' }])) as ViewRow[];
}

/** One view. */
export async function findView(db: Knex, id: string): Promise<ViewRow | undefined> {
  return (await metaTable(db, 'views').where({ id }).first()) as ViewRow | undefined;
}

/** The column settings of views. */
export async function listViewColumns(db: Knex, viewIds: string[]): Promise<ViewColumnRow[]> {
  if (!viewIds.length) return [];
  return (await metaTable(db, 'view_columns').whereIn('fk_view_id', viewIds).orderBy('order')) as ViewColumnRow[];
}

/** Next order position of a table's views. */
export async function nextViewOrder(db: Knex, tableId: string): Promise<number> {
  const row = await metaTable(db, 'views').where({ fk_model_id: tableId }).max<{ max: number | null }[]>('order as max').first();
  return Number(row?.max ?? 0) + 1;
}

/** The ids of a table's views. */
export async function viewIdsOf(db: Knex, tableId: string): Promise<string[]> {
  return (await metaTable(db, 'views').where({ fk_model_id: tableId }).pluck('id')) as string[];
}
