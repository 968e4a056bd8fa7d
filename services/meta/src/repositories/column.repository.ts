import type { Knex } from 'knex';
import { metaTable } from './meta-db';

/** A row of meta.columns. */
export interface ColumnRow {
  id: string;
  fk_model_id: string;
  base_id: string;
  title: string;
  column_name: string | null;
  uidt: string;
  dt: string | null;
  dtxp: string | null;
  dtxs: string | null;
  pk: boolean;
  pv: boolean;
  rqd: boolean;
  unique: boolean;
  ai: boolean;
  au: boolean;
  system: boolean;
  cdf: string | null;
  meta: Record<string, unknown> | null;
  order: number;
  description: string | null;
  /** Select options, a Formula's `{ formula, formula_raw }`, or a link's relation (see domain/link-column). */
  col_options: ({ options?: SelectOption[]; formula?: string; formula_raw?: string } & Record<string, unknown>) | null;
  created_at?: Date;
  updated_at?: Date;
}

/** A select option as stored. */
export interface SelectOption {
  id: string;
  title: string;
  color: string;
  order: number;
}

function serialise(row: Partial<ColumnRow>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  if (row.meta !== undefined) out.meta = row.meta === null ? null : JSON.stringify(row.meta);
  if (row.col_options !== undefined) out.col_options = row.col_options === null ? null : JSON.stringify(row.col_options);
  return out;
}

/** Inserts columns. */
export async function insertColumns(db: Knex, rows: Partial<ColumnRow>[]): Promise<void> {
  if (rows.length) await metaTable(db, 'columns').insert(rows.map(serialise));
}

/** The columns of a table, in order. */
export async function listColumns(db: Knex, tableId: string): Promise<ColumnRow[]> {
  return (await metaTable(db, 'columns').where({ fk_model_id: tableId }).orderBy([{ column: 'order' }, { column: 'created_at' }])) as ColumnRow[];
}

/** The columns of several tables. */
export async function listColumnsOf(db: Knex, tableIds: string[]): Promise<ColumnRow[]> {
  if (!tableIds.length) return [];
  return (await metaTable(db, 'columns').whereIn('fk_model_id', tableIds).orderBy([{ column: 'order' }, { column: 'created_at' }])) as ColumnRow[];
}

/** One column. */
export async function findColumn(db: Knex, id: string): Promise<ColumnRow | undefined> {
  return (await metaTable(db, 'columns').where({ id }).first()) as ColumnRow | undefined;
}

/** Updates a column. */
export async function updateColumn(db: Knex, id: string, patch: Partial<ColumnRow>): Promise<void> {
  await metaTable(db, 'columns').where({ id }).update({ ...serialise(patch), updated_at: db.fn.now() });
}

/** Clears the primary-value flag of a table's columns. */
export async function clearPrimaryValue(db: Knex, tableId: string): Promise<void> {
  await metaTable(db, 'columns').where({ fk_model_id: tableId, pv: true }).update({ pv: false });
}

/** Deletes a column's metadata (sorts, filters, view columns cascade). */
export async function deleteColumn(db: Knex, id: string): Promise<void> {
  await metaTable(db, 'columns').where({ id }).delete();
}
