import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { metaTable } from './meta-db';

/** A row of meta.tables. */
export interface TableRow {
  id: string;
  base_id: string;
  source_id: string;
  table_name: string;
  title: string;
  type: 'table' | 'view';
  meta: Record<string, unknown> | null;
  description: string | null;
  order: number | null;
  deleted: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Inserts a table. */
export async function insertTable(db: Knex, row: Partial<TableRow>): Promise<void> {
  await metaTable(db, 'tables').insert({ ...row, meta: row.meta ? JSON.stringify(row.meta) : null });
}

/** A live table by id. */
export async function findTable(db: Knex, id: string): Promise<TableRow | undefined> {
  return (await metaTable(db, 'tables').where({ id, deleted: false }).first()) as TableRow | undefined;
}

/**
 * A live table of a base by id, title or physical name (in that order of
 * preference). Several tables answering to the same title (or, failing that,
 * the same physical name) is a 409 naming their ids.
 */
export async function findTableByRef(db: Knex, baseId: string, ref: string): Promise<TableRow | undefined> {
  const rows = (await metaTable(db, 'tables').where({ base_id: baseId, deleted: false })
    .andWhere((q) => q.where('id', ref).orWhere('title', ref).orWhere('table_name', ref))) as TableRow[];
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
  const q = metaTable(db, 'tables').where({ base_id: baseId, deleted: false });
  if (sourceId) q.andWhere({ source_id: sourceId });
  return (await q.orderBy([{ column: 'order' }, { column: 'created_at' }])) as TableRow[];
}

/** Updates a table's fields. */
export async function updateTable(db: Knex, id: string, patch: Partial<TableRow>): Promise<void> {
  const row: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if (patch.meta !== undefined) row.meta = patch.meta === null ? null : JSON.stringify(patch.meta);
  await metaTable(db, 'tables').where({ id }).update(row);
}

/** Removes a table's metadata (columns, views, sorts, filters cascade). */
export async function deleteTable(db: Knex, id: string): Promise<void> {
  await metaTable(db, 'tables').where({ id }).delete();
}

/** Next order position in a base. */
export async function nextTableOrder(db: Knex, baseId: string): Promise<number> {
  const row = await metaTable(db, 'tables').where({ base_id: baseId }).max<{ max: number | null }[]>('order as max').first();
  return Number(row?.max ?? 0) + 1;
}
