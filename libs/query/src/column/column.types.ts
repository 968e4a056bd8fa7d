import type { Fragment } from '../compile/sql-fragment';

/**
 * The related rows of a list (a has-many or many-to-many lookup): `from` is
 * `… AS alias WHERE <correlation>`; `value` is one row's value, or, for a list
 * of lists (a lookup of such a lookup), `inner` the rows of each related row's list.
 */
export interface RelatedRows {
  from: Fragment;
  value?: Fragment;
  inner?: RelatedRows;
}

/** A computed column (Formula, Lookup, Rollup): its SQL expression and how it compares. */
export interface ComputedColumn {
  expression: Fragment;
  kind: 'text' | 'number' | 'checkbox' | 'date' | 'datetime';
  /**
   * A list of values of related rows: a condition holds when some value meets
   * it (`neq`, `nlike`, `blank`: when none meets the positive form).
   */
  related?: RelatedRows;
  /**
   * What a list sorts by (NocoDB's: the text of its values, in the related
   * rows' primary-key order; no values: NULL). A list without one is not sortable.
   */
  sortKey?: Fragment;
}

/** A column as the meta service stores it (the fields this library reads). */
export interface ColumnMeta {
  /** Column id (`c` + 14 characters). */
  id: string;
  /** Display title; row keys and the `where` language use it. */
  title: string;
  /** Physical column name; the only thing ever used as an SQL identifier. */
  column_name: string;
  /** UI data type (SingleLineText, Number, Date, Checkbox, MultiSelect, …). */
  uidt: string;
  /** Database data type (`timestamptz`, `boolean`, `varchar`, …) when known. */
  dt?: string;
  /** Primary key column. */
  pk?: boolean;
  /** System column (created_by, nc_order, …). */
  system?: boolean;
  /** Select options for SingleSelect / MultiSelect. */
  colOptions?: { options?: { title: string; order?: number }[] };
  /** Set for computed columns: filters and sorts use the expression instead of column_name. */
  computed?: ComputedColumn;
}

/** The knex client names Tabula supports. */
export type { Dialect } from '@tabula/db';
