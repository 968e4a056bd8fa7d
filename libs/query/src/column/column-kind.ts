import type { ColumnMeta } from './column.types';
import { isDtCompareUidt, isLinkUidt, uidtEntry, type CompareKind } from './uidt-catalogue';

/** How a column compares in SQL; decides value coercion and the SQL per operator. */
export type ColumnKind = CompareKind;

/** The comparison kind of a column, from its uidt's catalogue entry (and dt for ID and key columns). */
export function columnKind(column: ColumnMeta): ColumnKind {
  const { uidt } = column;
  if (column.computed) return column.computed.kind;
  if (isDtCompareUidt(uidt)) return isTextDt(column.dt) ? 'text' : 'number';
  return uidtEntry(uidt)?.compare ?? 'text';
}

/** True for LinkToAnotherRecord / Links columns (the only ones with count sorts). */
export function isLinkColumn(column: ColumnMeta): boolean {
  return isLinkUidt(column.uidt);
}

function isTextDt(dt: string | undefined): boolean {
  return !!dt && /char|text|uuid|string/i.test(dt);
}

/** True when the pg column stores a zone-aware timestamp (`timestamptz`). */
export function isZonedTimestamp(column: ColumnMeta): boolean {
  return !!column.dt && /tz|with time zone/i.test(column.dt);
}
