import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { BaseModel, type RowOf } from '@tabula/db';
import { META_SCHEMA } from './meta-db';

/** A row of meta.tables. */
export class TableModel extends BaseModel {
  static override tableName = `${META_SCHEMA}.tables`;
  static override jsonColumns = ['meta'];

  declare id: string;
  declare base_id: string;
  declare source_id: string;
  declare table_name: string;
  declare title: string;
  declare type: 'table' | 'view';
  declare meta: Record<string, unknown> | null;
  declare description: string | null;
  declare order: number | null;
  declare deleted: boolean;
  declare created_at: Date;
  declare updated_at: Date;
}

/** A row of meta.tables. */
export type TableRow = RowOf<TableModel>;

/** Inserts a table. */
export async function insertTable(db: Knex, row: Partial<TableRow>): Promise<void> {
  await TableModel.query(db).insert({ ...row, meta: row.meta ? row.meta : null });
}

/** A live table by id. */
export async function findTable(db: Knex, id: string): Promise<TableRow | undefined> {
  return TableModel.query(db).where({ id, deleted: false }).first();
}

/**
 * A live table of a base by id, title or physical name (in that order of
 * preference). Several tables answering to the same title (or, failing that,
 * the same physical name) is a 409 naming their ids.
 */
export async function findTableByRef(db: Knex, baseId: string, ref: string): Promise<TableRow | undefined> {
  const rows = await TableModel.query(db).where({ base_id: baseId, deleted: false })
    .andWhere((q) => q.where('id', ref).orWhere('title', ref).orWhere('table_name', ref));
  const byId = rows.find((r) => r.id === ref);
  if (byId) return byId;
  const byTitle = rows.filter((r) => r.title === ref);
  const matches = byTitle.length > 0 ? byTitle : rows.filter((r) => r.table_name === ref);
  if (matches.length > 1) {
    const ids = matches.map((r) => r.id);
    throw errors.conflict('ERR_TABLE_AMBIGUOUS', `Table '${ref}' matches several tables of the base (${ids.join(', ')}); use the table id`, { ids });
  }
  return matches[0];
}

/** The live tables of a base (optionally one source), ordered. */
export async function listTables(db: Knex, baseId: string, sourceId?: string): Promise<TableRow[]> {
  const q = TableModel.query(db).where({ base_id: baseId, deleted: false });
  if (sourceId) q.andWhere({ source_id: sourceId });
  return q.orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** Updates a table's fields. */
export async function updateTable(db: Knex, id: string, patch: Partial<TableRow>): Promise<void> {
  await TableModel.query(db).where({ id }).patch({ ...patch, updated_at: db.fn.now() as unknown as Date });
}

/** Removes a table's metadata (columns, views, sorts, filters cascade). */
export async function deleteTable(db: Knex, id: string): Promise<void> {
  await TableModel.query(db).where({ id }).delete();
}

/** Next order position in a base. */
export async function nextTableOrder(db: Knex, baseId: string): Promise<number> {
  const row = await TableModel.query(db).where({ base_id: baseId }).max('order as max').first() as unknown as { max: number | null } | undefined;
  return Number(row?.max ?? 0) + 1;
}

/** Locks a table's metadata row until the end of the transaction (serialises column changes of one table). */
export async function lockTable(trx: Knex, id: string): Promise<void> {
  await TableModel.query(trx).where({ id }).forUpdate().first();
}
