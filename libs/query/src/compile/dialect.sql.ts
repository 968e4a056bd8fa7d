import type { ColumnMeta, Dialect } from '../column/column.types';
import { isZonedTimestamp } from '../column/column-kind';
import { Fragment, sql } from './sql-fragment';

/** The escape character of every LIKE this library writes (bound, same on each dialect). */
export const LIKE_ESCAPE = '!';

/** SQL that differs between PostgreSQL, MySQL/MariaDB and SQLite. */
export interface DialectSql {
  /** The column as text (for LIKE on any type and JSON comparisons). */
  textOf(col: Fragment): Fragment;
  /** Case-insensitive LIKE with {@link LIKE_ESCAPE}. */
  ilike(expr: Fragment, pattern: string): Fragment;
  /** Case-sensitive text equality (MySQL compares case-insensitively without BINARY). */
  textEquals(col: Fragment, value: string): Fragment;
  /** `,` + the column + `,` (membership tests on MultiSelect text). */
  wrapCommas(col: Fragment): Fragment;
  /** The day (`YYYY-MM-DD`, UTC) of a Date or DateTime column. */
  dayOf(col: Fragment, column: ColumnMeta, isDateTime: boolean): Fragment;
  /** A DateTime column comparable with {@link DialectSql.timestampValue}. */
  timestampOf(col: Fragment): Fragment;
  /** A `YYYY-MM-DD HH:mm:ss` UTC value as this dialect binds it. */
  timestampValue(ts: string): string;
}

const pg: DialectSql = {
  textOf: (col) => sql`CAST(${col} AS TEXT)`,
  ilike: (expr, pattern) => sql`CAST(${expr} AS TEXT) ILIKE ${pattern} ESCAPE ${LIKE_ESCAPE}`,
  textEquals: (col, value) => sql`${col} = ${value}`,
  wrapCommas: (col) => sql`(${','} || CAST(${col} AS TEXT) || ${','})`,
  dayOf: (col, column, isDateTime) => {
    if (!isDateTime) return col;
    return isZonedTimestamp(column) ? sql`CAST(TIMEZONE(${'UTC'}, ${col}) AS DATE)` : sql`CAST(${col} AS DATE)`;
  },
  timestampOf: (col) => col,
  timestampValue: (ts) => `${ts}+00:00`,
};

const mysql: DialectSql = {
  textOf: (col) => sql`CAST(${col} AS CHAR)`,
  ilike: (expr, pattern) => sql`LOWER(${expr}) LIKE LOWER(${pattern}) ESCAPE ${LIKE_ESCAPE}`,
  textEquals: (col, value) => sql`BINARY ${col} = ${value}`,
  wrapCommas: (col) => sql`CONCAT(${','}, ${col}, ${','})`,
  dayOf: (col, _column, isDateTime) => (isDateTime ? sql`DATE(${col})` : col),
  timestampOf: (col) => col,
  timestampValue: (ts) => ts,
};

const sqlite: DialectSql = {
  textOf: (col) => sql`CAST(${col} AS TEXT)`,
  ilike: (expr, pattern) => sql`LOWER(${expr}) LIKE LOWER(${pattern}) ESCAPE ${LIKE_ESCAPE}`,
  textEquals: (col, value) => sql`${col} = ${value}`,
  wrapCommas: (col) => sql`(${','} || ${col} || ${','})`,
  dayOf: (col) => sql`date(${col})`,
  timestampOf: (col) => sql`datetime(${col})`,
  timestampValue: (ts) => ts,
};

const BY_DIALECT: Record<Dialect, DialectSql> = { pg, mysql2: mysql, sqlite3: sqlite };

/** The dialect-specific SQL builders. */
export function dialectSql(dialect: Dialect): DialectSql {
  const found = BY_DIALECT[dialect];
  if (!found) throw new TypeError(`Unsupported dialect '${String(dialect)}'`);
  return found;
}

/** Escapes `!` and `_` (and `%` unless kept as wildcard) for a LIKE pattern with {@link LIKE_ESCAPE}. */
export function escapeLike(value: string, keepPercent: boolean): string {
  const special = keepPercent ? /[!_]/g : /[!_%]/g;
  return value.replace(special, (c) => `${LIKE_ESCAPE}${c}`);
}
