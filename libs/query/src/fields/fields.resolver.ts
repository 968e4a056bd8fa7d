import { toColumnIndex, type ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { QueryError } from '../query-error';

/** Options of {@link resolveFields}. */
export interface FieldsOptions {
  /** Put the primary key column(s) first when not asked for (default true: NocoDB always returns it). */
  includePrimaryKey?: boolean;
}

/**
 * Resolves `fields=Title,cabc…` (titles or ids, comma-separated, or a repeated
 * parameter) to columns, in the order asked, without duplicates. Undefined when
 * no fields are asked for (all columns).
 * @throws QueryError 404 ERR_FIELD_NOT_FOUND naming every unknown field.
 */
export function resolveFields(
  fields: string | string[] | undefined | null,
  columns: readonly ColumnMeta[] | ColumnIndex,
  options: FieldsOptions = {},
): ColumnMeta[] | undefined {
  if (fields === undefined || fields === null) return undefined;
  const names = (Array.isArray(fields) ? fields.join(',') : String(fields))
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (!names.length) return undefined;
  const index = toColumnIndex(columns);
  const missing = names.filter((n) => !index.find(n));
  if (missing.length) throw QueryError.fieldNotFound([...new Set(missing.map((n) => n.slice(0, 100)))]);
  const picked = [...new Set(names.map((n) => index.find(n) as ColumnMeta))];
  if (options.includePrimaryKey === false) return picked;
  const missingPks = index.columns.filter((c) => c.pk && !picked.includes(c));
  return [...missingPks, ...picked];
}
