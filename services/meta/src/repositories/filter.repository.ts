import type { Knex } from 'knex';
import { metaTable } from './meta-db';

/** A row of meta.filters. */
export interface FilterRow {
  id: string;
  fk_view_id: string | null;
  fk_hook_id: string | null;
  fk_parent_id: string | null;
  fk_column_id: string | null;
  base_id: string;
  comparison_op: string | null;
  comparison_sub_op: string | null;
  value: unknown;
  logical_op: 'and' | 'or' | 'not' | null;
  is_group: boolean;
  order: number | null;
}

/** The filters of views (every level), by order. */
export async function listFiltersOfViews(db: Knex, viewIds: string[]): Promise<FilterRow[]> {
  if (!viewIds.length) return [];
  return (await metaTable(db, 'filters').whereIn('fk_view_id', viewIds).orderBy([{ column: 'order' }, { column: 'created_at' }])) as FilterRow[];
}

/** The direct children of a filter group. */
export async function listChildren(db: Knex, parentId: string): Promise<FilterRow[]> {
  return (await metaTable(db, 'filters').where({ fk_parent_id: parentId }).orderBy([{ column: 'order' }, { column: 'created_at' }])) as FilterRow[];
}

/** One filter. */
export async function findFilter(db: Knex, id: string): Promise<FilterRow | undefined> {
  return (await metaTable(db, 'filters').where({ id }).first()) as FilterRow | undefined;
}

/** Inserts a filter. */
export async function insertFilter(db: Knex, row: FilterRow): Promise<void> {
  await metaTable(db, 'filters').insert({ ...row, value: JSON.stringify(row.value ?? null) });
}

/** Updates a filter. */
export async function updateFilter(db: Knex, id: string, patch: Partial<FilterRow>): Promise<void> {
  const row: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if (patch.value !== undefined) row.value = JSON.stringify(patch.value);
  await metaTable(db, 'filters').where({ id }).update(row);
}

/** Deletes a filter (children cascade). */
export async function deleteFilter(db: Knex, id: string): Promise<void> {
  await metaTable(db, 'filters').where({ id }).delete();
}

/** Next order among siblings. */
export async function nextFilterOrder(db: Knex, viewId: string, parentId: string | null): Promise<number> {
  const row = await metaTable(db, 'filters').where({ fk_view_id: viewId, fk_parent_id: parentId })
    .max<{ max: number | null }[]>('order as max').first();
  return Number(row?.max ?? 0) + 1;
}
