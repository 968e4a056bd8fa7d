import type { Knex } from 'knex';
import type { ColumnRow } from '../repositories/column.repository';
import type { SourceHandle } from './dialect';

/** System column names (compat-notes: in this order). */
export const SYSTEM_COLUMN_NAMES = ['id', 'created_at', 'updated_at', 'created_by', 'updated_by', 'nc_order'] as const;

type Meta = Pick<ColumnRow, 'title' | 'column_name' | 'uidt' | 'dt' | 'pk' | 'ai' | 'rqd' | 'system'>;

/** Metadata of the system columns, per dialect's `dt`. */
export function systemColumnMeta(dialect: SourceHandle['dialect']): Meta[] {
  const ts = dialect === 'pg' ? 'timestamp with time zone' : dialect === 'mysql2' ? 'timestamp' : 'datetime';
  const str = dialect === 'pg' ? 'character varying' : 'varchar';
  const base = { pk: false, ai: false, rqd: false, system: true };
  return [
    { title: 'Id', column_name: 'id', uidt: 'ID', dt: dialect === 'pg' ? 'integer' : 'int', pk: true, ai: true, rqd: true, system: false },
    { ...base, title: 'CreatedAt', column_name: 'created_at', uidt: 'CreatedTime', dt: ts },
    { ...base, title: 'UpdatedAt', column_name: 'updated_at', uidt: 'LastModifiedTime', dt: ts },
    { ...base, title: 'nc_created_by', column_name: 'created_by', uidt: 'CreatedBy', dt: str },
    { ...base, title: 'nc_updated_by', column_name: 'updated_by', uidt: 'LastModifiedBy', dt: str },
    { ...base, title: 'nc_order', column_name: 'nc_order', uidt: 'Order', dt: 'decimal' },
  ];
}

/** Adds the system columns and the nc_order index to a CREATE TABLE builder. */
export function defineSystemColumns(t: Knex.CreateTableBuilder, source: SourceHandle, tableId: string): void {
  const now = source.knex.fn.now();
  t.increments('id', { primaryKey: true });
  if (source.dialect === 'pg') {
    t.timestamp('created_at', { useTz: true }).defaultTo(now);
    t.timestamp('updated_at', { useTz: true }).defaultTo(now);
  } else {
    t.timestamp('created_at').nullable().defaultTo(now);
    t.timestamp('updated_at').nullable().defaultTo(now);
  }
  t.string('created_by', 255).nullable();
  t.string('updated_by', 255).nullable();
  t.decimal('nc_order', 38, 10).nullable();
  t.index(['nc_order'], `${tableId}_order_idx`);
}
