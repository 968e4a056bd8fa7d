import type { ColumnInfo } from '@tabula/contracts';
import { isAutoUidt, isUserStampUidt, isVirtualUidt } from '@tabula/query';

/** System columns left out of list/read responses (compat-notes "Records (v1)"). */
const HIDDEN_SYSTEM_NAMES = new Set(['created_by', 'updated_by', 'nc_order']);

/** True when the column has no physical column to read or write (links, lookups, formulas…; uidt catalogue). */
export function isVirtual(column: ColumnInfo): boolean {
  return isVirtualUidt(column.uidt);
}

/**
 * True for columns a client may not write: auto uidts, auto-increment keys,
 * system columns (nc_order, created_by…). A non-auto primary key of an external
 * table stays writable.
 */
export function isAutoColumn(column: ColumnInfo): boolean {
  if (column.system || column.ai || isAutoUidt(column.uidt)) return true;
  return column.column_name === 'nc_order';
}

/** True for the system columns responses leave out. */
export function isHiddenSystem(column: ColumnInfo): boolean {
  // A link's foreign key column is NocoDB's hidden system `ForeignKey`.
  // A CreatedBy / LastModifiedBy column a client added reads the same system column, and is shown.
  const userColumn = !column.system && isUserStampUidt(column.uidt);
  return (HIDDEN_SYSTEM_NAMES.has(column.column_name) && !userColumn) || column.uidt === 'ForeignKey';
}

/** The physical column maintained as creation time, if any. */
export function isCreatedAt(column: ColumnInfo): boolean {
  return column.uidt === 'CreatedTime' || (column.system && column.column_name === 'created_at');
}

/** The physical column maintained as last-modified time, if any. */
export function isUpdatedAt(column: ColumnInfo): boolean {
  return column.uidt === 'LastModifiedTime' || (column.system && column.column_name === 'updated_at');
}
