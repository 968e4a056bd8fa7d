import type { Knex } from 'knex';
import { BaseModel, type RowOf } from '@tabula/db';
import { HOOKS_SCHEMA } from './hooks-db';

/** A stored hook filter, NocoDB shape (`hooks.hook_filters`). */
export class HookFilterModel extends BaseModel {
  static override tableName = `${HOOKS_SCHEMA}.hook_filters`;
  static override jsonValueColumns = ['value'];

  declare id: string;
  declare fk_hook_id: string;
  declare fk_parent_id: string | null;
  declare fk_column_id: string | null;
  declare comparison_op: string | null;
  declare comparison_sub_op: string | null;
  declare value: unknown;
  declare logical_op: string;
  declare is_group: boolean;
  declare order: number;
  declare created_at?: Date;
  declare updated_at?: Date;
}

/** A stored hook filter. */
export type HookFilterRow = RowOf<HookFilterModel>;

/** Inserts a filter row (an undefined value is SQL NULL, `null` the JSON null). */
export async function insertHookFilter(db: Knex, row: Omit<HookFilterRow, 'created_at' | 'updated_at'>): Promise<void> {
  await HookFilterModel.query(db).insert(row);
}

/** The filter rows of some hooks, in order. */
export async function filtersOfHooks(db: Knex, hookIds: string[]): Promise<HookFilterRow[]> {
  if (!hookIds.length) return [];
  return HookFilterModel.query(db).whereIn('fk_hook_id', hookIds).orderBy([{ column: 'order' }, { column: 'created_at' }]);
}

/** The next sibling order under a parent. */
export async function nextFilterOrder(db: Knex, hookId: string, parentId: string | null): Promise<number> {
  const row = await HookFilterModel.query(db).where({ fk_hook_id: hookId, fk_parent_id: parentId }).max('order as max').first() as unknown as { max: number | null } | undefined;
  return (Number(row?.max) || 0) + 1;
}
