import type { ColumnMeta } from '../column/column.types';
import type { ColumnKind } from '../column/column-kind';
import { QueryError } from '../query-error';
import type { RawValue, Scalar } from './filter.types';
import { FILTER_LIMITS } from './limits';
import { parseDateValue } from './date-value';

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?$/;
const TRUTHY = new Set(['true', '1', 'yes', 'y', 'on', 'checked']);
const FALSY = new Set(['false', '0', 'no', 'n', 'off', 'unchecked']);

/** A raw value as text: lists joined with commas, null/undefined as ''. */
export function rawText(value: RawValue): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => (v === null ? '' : String(v))).join(',');
  return String(value);
}

/** A raw value as a list: arrays item by item, text split on commas; items trimmed. */
export function rawList(value: RawValue, column: ColumnMeta): string[] {
  const items = Array.isArray(value) ? value.map((v) => (v === null ? '' : String(v))) : rawText(value).split(',');
  if (items.length > FILTER_LIMITS.maxListValues) {
    throw QueryError.invalidFilter(
      `Too many values for column '${column.title}': at most ${FILTER_LIMITS.maxListValues} are allowed`,
      { column: column.title, count: items.length },
    );
  }
  return items.map((item) => item.trim());
}

/** Coerces one value to the column's type; 422 naming column and value when it does not fit. */
export function coerceScalar(text: string, column: ColumnMeta, kind: ColumnKind): Scalar {
  switch (kind) {
    case 'number':
      return toNumber(text, column);
    case 'checkbox':
      return toBoolean(text, column);
    case 'date':
    case 'datetime':
      return toDate(text, column);
    case 'time':
      return toTime(text, column);
    default:
      return text;
  }
}

function toNumber(text: string, column: ColumnMeta): number {
  const trimmed = text.trim();
  const value = NUMERIC.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value)) throw invalidValue(column, text, 'a number is expected');
  return value;
}

function toBoolean(text: string, column: ColumnMeta): boolean {
  const key = text.trim().toLowerCase();
  if (TRUTHY.has(key)) return true;
  if (FALSY.has(key) || key === '') return false;
  throw invalidValue(column, text, 'true or false is expected');
}

/** `HH:mm:ss` (fractions kept) so text comparison on SQLite agrees with TIME on the others. */
function toTime(text: string, column: ColumnMeta): string {
  const trimmed = text.trim();
  const match = TIME.exec(trimmed);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59) {
    throw invalidValue(column, text, 'a time (HH:mm[:ss]) is expected');
  }
  return `${match[1].padStart(2, '0')}:${match[2]}:${match[3] ?? '00'}${match[4] ?? ''}`;
}

function toDate(text: string, column: ColumnMeta): string {
  const value = parseDateValue(text);
  if (!value) throw invalidValue(column, text, 'a date (YYYY-MM-DD[ HH:mm:ss]) is expected');
  return value;
}

/** Parses a whole number of days (|n| ≤ 100,000); 422 otherwise. */
export function toDayCount(text: string, column: ColumnMeta): number {
  const trimmed = text.trim();
  const value = /^[+-]?\d{1,6}$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isInteger(value) || Math.abs(value) > 100_000) {
    throw invalidValue(column, text, 'a whole number of days is expected');
  }
  return value;
}

/** 422 ERR_INVALID_FILTER naming the column and the value. */
export function invalidValue(column: ColumnMeta, value: string, why: string): QueryError {
  const shown = value.length > 100 ? `${value.slice(0, 100)}…` : value;
  return QueryError.invalidFilter(`Invalid value '${shown}' for column '${column.title}': ${why}`, {
    column: column.title,
    value: shown,
  });
}
