import type { Knex } from 'knex';
import type { ColumnMeta, Dialect } from '../column/column.types';
import { QueryError } from '../query-error';
import { columnKind } from '../column/column-kind';
import type { SortItem } from './sort.types';

/** Options of {@link applySort}. */
export interface SortCompileOptions {
  /** Qualifies every column as `alias.column_name`. */
  tableAlias?: string;
  /** The number of linked records of a link column (a correlated subquery); needed for count sorts. */
  linkCount?: (column: ColumnMeta) => Knex.Raw | Knex.QueryBuilder;
}

/**
 * Adds ORDER BY terms: NULLs first ascending and last descending on every
 * dialect (MySQL and SQLite do so by default; PostgreSQL is told). Identifiers
 * come from column metadata only.
 * @throws QueryError 422 ERR_INVALID_SORT for a count sort without `linkCount`.
 */
export function applySort<Q extends Knex.QueryBuilder>(
  qb: Q,
  sorts: readonly SortItem[],
  dialect: Dialect,
  options: SortCompileOptions = {},
): Q {
  for (const { column, direction } of sorts) {
    if (direction === 'count-asc' || direction === 'count-desc') {
      if (!options.linkCount) {
        throw QueryError.invalidSort(`Sorting by the links of '${column.title}' is not supported here`, {
          column: column.title,
        });
      }
      qb.orderByRaw(`? ${direction === 'count-desc' ? 'DESC' : 'ASC'}`, [options.linkCount(column)]);
      continue;
    }
    if (column.computed) {
      const { sql, bindings } = column.computed.sortKey ?? column.computed.expression;
      qb.orderByRaw(orderTerm(dialect, direction === 'desc').replace(/\?\?/g, () => `(${sql})`), [...bindings]);
      continue;
    }
    const name = options.tableAlias ? `${options.tableAlias}.${column.column_name}` : column.column_name;
    // PostgreSQL's json type has no ordering: JSON columns sort by their text.
    const asText = dialect === 'pg' && columnKind(column) === 'json';
    qb.orderByRaw(orderTerm(dialect, direction === 'desc', asText), [name]);
  }
  return qb;
}

function orderTerm(dialect: Dialect, desc: boolean, asText = false): string {
  const target = asText ? 'CAST(?? AS TEXT)' : '??';
  if (dialect === 'pg') return desc ? `${target} DESC NULLS LAST` : `${target} ASC NULLS FIRST`;
  return desc ? '?? DESC' : '?? ASC';
}
