import type { ColumnMeta } from './column.types';

/** How a column compares in SQL; decides value coercion and the SQL per operator. */
export type ColumnKind = 'text' | 'number' | 'checkbox' | 'date' | 'datetime' | 'time' | 'json' | 'virtual';

const NUMBER_UIDTS = new Set([
  'Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Year', 'AutoNumber', 'Count',
]);
const DATETIME_UIDTS = new Set(['DateTime', 'CreatedTime', 'LastModifiedTime']);
const JSON_UIDTS = new Set(['JSON', 'Attachment']);
const LINK_UIDTS = new Set(['LinkToAnotherRecord', 'Links']);
const VIRTUAL_UIDTS = new Set([
  ...LINK_UIDTS, 'Lookup', 'Rollup', 'Formula', 'Button', 'QrCode', 'Barcode',
]);

/** The comparison kind of a column, from its uidt (and dt for ID columns). */
export function columnKind(column: ColumnMeta): ColumnKind {
  const { uidt } = column;
  if (column.computed) return column.computed.kind;
  if (VIRTUAL_UIDTS.has(uidt)) return 'virtual';
  if (NUMBER_UIDTS.has(uidt)) return 'number';
  if (uidt === 'ID' || uidt === 'ForeignKey') return isTextDt(column.dt) ? 'text' : 'number';
  if (uidt === 'Checkbox') return 'checkbox';
  if (uidt === 'Date') return 'date';
  if (DATETIME_UIDTS.has(uidt)) return 'datetime';
  if (uidt === 'Time') return 'time';
  if (JSON_UIDTS.has(uidt)) return 'json';
  return 'text';
}

/** True for LinkToAnotherRecord / Links columns (the only ones with count sorts). */
export function isLinkColumn(column: ColumnMeta): boolean {
  return LINK_UIDTS.has(column.uidt);
}

function isTextDt(dt: string | undefined): boolean {
  return !!dt && /char|text|uuid|string/i.test(dt);
}

/** True when the pg column stores a zone-aware timestamp (`timestamptz`). */
export function isZonedTimestamp(column: ColumnMeta): boolean {
  return !!column.dt && /tz|with time zone/i.test(column.dt);
}
