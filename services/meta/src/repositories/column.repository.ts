import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { uidtsIn } from '@tabula/query';
import { META_SCHEMA } from './meta-db';

/** A row of meta.columns. */
export class ColumnModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.columns`;
  static override jsonColumns = ['meta', 'col_options'];

  declare id: string;
  declare fk_model_id: string;
  declare base_id: string;
  declare title: string;
  declare column_name: string | null;
  declare uidt: string;
  declare dt: string | null;
  declare dtxp: string | null;
  declare dtxs: string | null;
  declare pk: boolean;
  declare pv: boolean;
  declare rqd: boolean;
  declare unique: boolean;
  declare ai: boolean;
  declare au: boolean;
  declare system: boolean;
  declare cdf: string | null;
  declare meta: Record<string, unknown> | null;
  declare order: number;
  declare description: string | null;
  /** Select options, a Formula's `{ formula, formula_raw }`, or a link's relation (see domain/link-column). */
  declare col_options: ({ options?: SelectOption[]; formula?: string; formula_raw?: string } & Record<string, unknown>) | null;
  declare created_at?: Date;
  declare updated_at?: Date;
}

/** A row of meta.columns. */
export type ColumnRow = RowOf<ColumnModel>;

/** A select option as stored. */
export interface SelectOption {
  id: string;
  title: string;
  color: string;
  order: number;
}

/** Inserts columns. */
export async function insertColumns(db: Knex, rows: Partial<ColumnRow>[]): Promise<void> {
  if (rows.length) await ColumnModel.query(db).insert(rows);
}

/** The columns of a table, in order. */
export async function listColumns(db: Knex, tableId: string): Promise<ColumnRow[]> {
  return ColumnModel.query(db).where({ fk_model_id: tableId }).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** The columns of several tables. */
export async function listColumnsOf(db: Knex, tableIds: string[]): Promise<ColumnRow[]> {
  if (!tableIds.length) return [];
  return ColumnModel.query(db).whereIn('fk_model_id', tableIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** One column. */
export async function findColumn(db: Knex, id: string): Promise<ColumnRow | undefined> {
  return ColumnModel.query(db).where({ id }).first();
}

/** Updates a column. */
export async function updateColumn(db: Knex, id: string, patch: Partial<ColumnRow>): Promise<void> {
  await ColumnModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() as unknown as Date });
}

/** Clears the primary-value flag of a table's columns. */
export async function clearPrimaryValue(db: Knex, tableId: string): Promise<void> {
  await ColumnModel.query(db).where({ fk_model_id: tableId, pv: true }).patch({ pv: false });
}

/** Deletes a column's metadata (sorts, filters, view columns cascade). */
export async function deleteColumn(db: Knex, id: string): Promise<void> {
  await ColumnModel.query(db).where({ id }).delete();
}

/** The link columns of a base (any table). */
export async function linkColumnsOfBase(db: Knex, baseId: string): Promise<ColumnRow[]> {
  return ColumnModel.query(db).where({ base_id: baseId }).whereIn('uidt', uidtsIn('link'));
}

/** The lookup and rollup columns of a base (any table). */
export async function lookupRollupColumnsOfBase(db: Knex, baseId: string): Promise<ColumnRow[]> {
  return ColumnModel.query(db).where({ base_id: baseId }).whereIn('uidt', uidtsIn('throughLink'));
}

/** The link columns (any base) whose junction table is `tableId`. */
export async function linkColumnsThrough(db: Knex, tableId: string): Promise<ColumnRow[]> {
  return ColumnModel.query(db).whereIn('uidt', uidtsIn('link')).whereRaw("col_options::jsonb->>'fk_mm_model_id' = ?", [tableId]);
}
