import type { Knex } from 'knex';
import type { Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import type { FormulaType } from './formula.ast';

/** A compiled expression: its SQL and its type (and its value when a literal). */
export interface Compiled {
  sql: Fragment;
  type: FormulaType;
  literal?: string | number | boolean | null;
  /** Text already cut at the text cap (a CONCAT, REPT or REPLACE result). */
  capped?: boolean;
  /** The text of a JSON column (valid JSON by construction). */
  json?: boolean;
}

/** One function of the formula language. */
export interface FormulaFunction {
  min: number;
  max: number;
  /** Checks argument types; returns the result type. */
  type(args: Compiled[], at: (i: number) => number): FormulaType;
  sql(d: Dialect, args: Compiled[]): Fragment;
  /** Its text result is already cut at the text cap. */
  capped?: boolean;
  /** Why the dialect cannot compute it (undefined: it can). */
  unsupportedOn?(d: Dialect): string | undefined;
  /** Further checks of literal arguments (patterns). */
  check?(args: Compiled[], at: (i: number) => number): void;
}

/** Builds a Fragment from a template whose `$0`, `$1`… name argument fragments. */
export function tpl(text: string, ...args: Fragment[]): Fragment {
  const bindings: Knex.Value[] = [];
  const sqlText = text.replace(/\$(\d+)/g, (_, n: string) => {
    const f = args[Number(n)];
    bindings.push(...f.bindings);
    return `(${f.sql})`;
  });
  return new Fragment(sqlText, bindings);
}

/** A bound value. */
export function bound(value: Knex.Value): Fragment {
  return new Fragment('?', [value]);
}

/** Joins fragments with a separator. */
export function joined(parts: Fragment[], sep: string): Fragment {
  return new Fragment(parts.map((p) => `(${p.sql})`).join(sep), parts.flatMap((p) => p.bindings));
}

/** Text of a value, NULL kept (for CONCAT, comparisons of mixed types). */
export function asText(d: Dialect, c: Compiled): Fragment {
  switch (c.type) {
    case 'string': case 'null': return c.sql;
    case 'number':
      // pg: float8's text is its shortest exact form; as numeric it prints without an exponent (10, 2.5, 1e20 in full).
      if (d === 'pg') return tpl(`(($0)::text::numeric)::text`, c.sql);
      // MySQL: whole numbers as integers while they fit one (CAST AS SIGNED saturates past ±9.2e18);
      // CONCAT, unlike CAST AS CHAR, gives text any column collation accepts (else "Illegal mix of collations").
      if (d === 'mysql2') return tpl(`CASE WHEN ABS($0) < 9e18 AND $0 = TRUNCATE($0, 0) THEN CONCAT(CAST(TRUNCATE($0, 0) AS SIGNED)) ELSE CONCAT($0) END`, c.sql);
      return tpl(`CASE WHEN $0 = CAST($0 AS INTEGER) THEN CAST(CAST($0 AS INTEGER) AS TEXT) ELSE CAST($0 AS TEXT) END`, c.sql);
    case 'boolean': return tpl(`CASE WHEN $0 THEN 'true' WHEN NOT $0 THEN 'false' END`, c.sql);
    case 'date': return formatDate(d, c.sql, false);
    case 'datetime': return formatDate(d, c.sql, true);
  }
}

/** A date or datetime as `YYYY-MM-DD` / `YYYY-MM-DD HH:MM:SS` text (UTC). */
export function formatDate(d: Dialect, x: Fragment, withTime: boolean): Fragment {
  if (d === 'pg') return tpl(withTime ? `to_char($0, 'YYYY-MM-DD HH24:MI:SS')` : `to_char($0, 'YYYY-MM-DD')`, x);
  if (d === 'mysql2') return tpl(withTime ? `DATE_FORMAT($0, '%Y-%m-%d %H:%i:%s')` : `DATE_FORMAT($0, '%Y-%m-%d')`, x);
  return tpl(withTime ? `strftime('%Y-%m-%d %H:%M:%S', $0)` : `strftime('%Y-%m-%d', $0)`, x);
}

/** A condition from a value: booleans as they are, numbers ≠ 0, text non-empty. */
export function asCondition(c: Compiled): Fragment {
  switch (c.type) {
    case 'boolean': return c.sql;
    case 'number': return tpl(`$0 <> 0`, c.sql);
    case 'string': return tpl(`$0 IS NOT NULL AND $0 <> ''`, c.sql);
    case 'null': return new Fragment('1 = 0', []);
    default: return tpl(`$0 IS NOT NULL`, c.sql);
  }
}

/** A date/datetime string literal as a typed value of the dialect. */
export function dateLiteral(d: Dialect, value: string, withTime: boolean): Fragment {
  if (d === 'pg') return new Fragment(withTime ? '(?)::timestamp' : '(?)::date', [value]);
  if (d === 'mysql2') return new Fragment(withTime ? 'CAST(? AS DATETIME)' : 'CAST(? AS DATE)', [value]);
  return new Fragment(withTime ? 'datetime(?)' : 'date(?)', [value]);
}

/** A date as a datetime (midnight), for arithmetic mixing both. */
export function asDatetime(d: Dialect, c: Compiled): Fragment {
  // pg: BLANK() as a typed NULL (EXTRACT, + INTERVAL of an untyped NULL are ambiguous).
  if (c.type === 'null' && d === 'pg') return new Fragment('(NULL)::timestamp', []);
  if (c.type !== 'date') return c.sql;
  if (d === 'pg') return tpl(`($0)::timestamp`, c.sql);
  if (d === 'mysql2') return tpl(`CAST($0 AS DATETIME)`, c.sql);
  return tpl(`datetime($0)`, c.sql);
}
