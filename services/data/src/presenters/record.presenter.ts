import type { ColumnInfo } from '@tabula/contracts';
import { parseInstant, utcText } from '../values/date.coercers';
import { isCreatedAt, isUpdatedAt } from '../model/column-roles';

/** A record as the API returns it: column title → formatted value. */
export type ApiRecord = Record<string, unknown>;

const NUMERIC = new Set(['Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Rating', 'Year', 'AutoNumber']);

/**
 * Formats one stored value per compat-notes "Records (v1)": DateTime as
 * `YYYY-MM-DD HH:mm:ss+00:00`, Date as `YYYY-MM-DD`, numbers as numbers,
 * Checkbox as boolean, Attachment as an array, JSON parsed.
 */
export function presentValue(column: ColumnInfo, value: unknown): unknown {
  if (value === null || value === undefined) return column.uidt === 'Checkbox' ? false : null;
  if (column.uidt === 'DateTime' || isCreatedAt(column) || isUpdatedAt(column)) return presentDateTime(value);
  if (column.uidt === 'Date') return value instanceof Date ? utcText(value).slice(0, 10) : String(value).slice(0, 10);
  if (NUMERIC.has(column.uidt) || (column.uidt === 'ID' && typeof value === 'string' && /^\d+$/.test(value))) {
    const n = Number(value);
    return Number.isFinite(n) ? n : value;
  }
  if (column.uidt === 'Checkbox') return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
  if (column.uidt === 'Attachment' || column.uidt === 'JSON') return parseJson(value, column.uidt === 'Attachment');
  return value;
}

function presentDateTime(value: unknown): string | unknown {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?$/.test(value)) {
    return `${value.replace('T', ' ').slice(0, 19).padEnd(19, ':00')}+00:00`;
  }
  const instant = parseInstant(typeof value === 'string' ? value.replace(/(\.\d+)/, '') : value);
  return instant ? `${utcText(instant)}+00:00` : value;
}

function parseJson(value: unknown, asArray: boolean): unknown {
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return asArray && !Array.isArray(parsed) ? [] : parsed;
  } catch {
    return asArray ? [] : value;
  }
}

/** Turns a stored row into the API record for the given columns (keys: titles). */
export function presentRecord(columns: ColumnInfo[], row: Record<string, unknown>): ApiRecord {
  const out: ApiRecord = {};
  for (const c of columns) out[c.title] = presentValue(c, row[c.column_name]);
  return out;
}
