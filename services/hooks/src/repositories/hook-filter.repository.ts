import type { Knex } from 'knex';
import { tbl } from './hooks-db';

/** A stored hook filter (NocoDB shape). */
export interface HookFilterRow {
  id: string;
  fk_hook_id: string;
  fk_parent_id: string | null;
  fk_column_id: string | null;
  comparison_op: string | null;
  comparison_sub_op: string | null;
  value: unknown;
  logical_op: string;
  is_group: boolean;
  order: number;
  created_at?: Date;
  updated_at?: Date;
}

/** Inserts a filter row. */
export async function insertHookFilter(db: Knex, row: Omit<HookFilterRow, 'created_at' | 'updated_at'>): Promise<void> {
  await tbl(db, 'hook_filters').insert({ ...row, value: row.value === undefined ? null : JSON.stringify(row.value) });
}

/** The filter rows of some hooks, in order. */
export async function filtersOfHooks(db: Knex, hookIds: string[]): Promise<HookFilterRow[]> {
  if (!hookIds.length) return [];
  return tbl(db, 'hook_filters').whereIn('fk_hook_id', hookIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** The next sibling order under a parent. */
export async function nextFilterOrder(db: Knex, hookId: string, parentId: string | null): Promise<number> {
  const [{ max }] = await tbl(db, 'hook_filters').where({ fk_hook_id: hookId, fk_parent_id: parentId }).max({ max: 'order' });
  return (Number(max) || 0) + 1;
}
