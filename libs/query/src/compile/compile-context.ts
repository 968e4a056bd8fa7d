import type { ColumnMeta, Dialect } from '../column/column.types';
import type { ColumnKind } from '../column/column-kind';
import type { DialectSql } from './dialect.sql';
import type { Fragment } from './sql-fragment';

/** Options of applyFilter / compileFilter. */
export interface FilterCompileOptions {
  /** "Now" for date sub-operators (today, pastWeek, …); default the current time. Days are UTC days. */
  now?: Date;
  /** Qualifies every column as `alias.column_name` (for joins and subqueries). */
  tableAlias?: string;
}

/** What compiling one condition needs. */
export interface ConditionContext {
  dialect: Dialect;
  d: DialectSql;
  now: Date;
  column: ColumnMeta;
  kind: ColumnKind;
  /** The quoted column reference. */
  col: Fragment;
}
