import type { Knex } from 'knex';
import { metaTable } from './meta-db';

/** A row of meta.sorts. */
export interface SortRow {
  id: string;
  fk_view_id: string;
  fk_column_id: string;
  direction: 'asc' | 'desc' | 'count-asc' | 'count-desc';
  order: number;
  fk_level_id: string | null;
}

/** The sorts of views, by order. */
export async function listSorts(db: Knex, viewIds: string[]): Promise<SortRow[]> {
  if (!viewIds.length) return [];
  return (await metaTable(db, 'sorts').whereIn('fk_view_id', viewIds).orderBy([{ column: 'order' }, { column: 'created_at' }])) as SortRow[];
}

/** One sort. */
export async function findSort(db: Knex, id: string): Promise<SortRow | undefined> {
  return (await metaTable(db, 'sorts').where({ id }).first()) as SortRow | undefined;
}

/** Inserts a sort. */
export async function insertSort(db: Knex, row: SortRow): Promise<void> {
  await metaTable(db, 'sorts').insert(row);
}

/** Shifts every sort of a view down one place (push_to_top). */
export async function shiftSorts(db: Knex, viewId: string): Promise<void> {
  await metaTable(db, 'sorts').where({ fk_view_id: viewId }).increment('order', 1);
}

/** Next order of a view's sorts. */
export async function nextSortOrder(db: Knex, viewId: string): Promise<number> {
  const row = await metaTable(db, 'sorts').where({ fk_view_id: viewId }).max<{ max: number | null }[]>('order as max').first();
  return Number(row?.max ?? 0) + 1;
}

/** Updates a sort. */
export async function updateSort(db: Knex, id: string, patch: Partial<SortRow>): Promise<void> {
  await metaTable(db, 'sorts').where({ id }).update({ ...patch, updated_at: db.fn.now() });
}

/** Deletes a sort. */
export async function deleteSort(db: Knex, id: string): Promise<void> {
  await metaTable(db, 'sorts').where({ id }).delete();
}
