import type { Dialect } from '../column/column.types';
import type { Fragment } from '../compile/sql-fragment';
import { tpl } from './formula.sql';

/**
 * Range guards. PostgreSQL and MySQL/MariaDB raise an error when a value
 * leaves its type's range (a double overflows or, on PostgreSQL, underflows;
 * an integer or interval is out of range), and one such value fails the whole
 * statement, i.e. the page. These guards make that one value blank (NULL)
 * instead, in SQL. Each names its operands once, so nested formulas compile
 * to SQL that grows linearly, not exponentially.
 */

/** The largest double, as a pg numeric literal (larger results are blank). */
const PG_MAX = '1.7976931348623157e308';

/** x when -k < x < k, else NULL (NaN and ±Infinity included); x appears once. */
export function inRange(d: Dialect, x: Fragment, k: string): Fragment {
  const [least, greatest] = d === 'sqlite3' ? ['min', 'max'] : ['LEAST', 'GREATEST'];
  const bound = d === 'pg' ? `(${k})::float8` : k;
  return tpl(`NULLIF(NULLIF(${least}(${greatest}($0, -${bound}), ${bound}), ${bound}), -${bound})`, x);
}

/** SQLite: an overflow is ±Infinity there; blank, as on the other dialects (NaN is already NULL). */
export function finite(x: Fragment): Fragment {
  return tpl('NULLIF(NULLIF($0, 9e999), -9e999)', x);
}

/** pg: a float8 as the exact numeric it holds (float8's text is its shortest exact form). */
export function pgExact(x: Fragment): Fragment {
  return tpl('($0)::text::numeric', x);
}

/** pg: a numeric as float8: blank beyond the double's range, 0 below its smallest step. */
export function pgDouble(n: Fragment): Fragment {
  return tpl('($0)::float8', tpl(`NULLIF(NULLIF(LEAST(GREATEST($0, -${PG_MAX}), ${PG_MAX}), ${PG_MAX}), -${PG_MAX})`, tpl('ROUND($0, 323)', n)));
}

/** An integer argument (a length, a position) clamped to 32 bits; pg casts it to int. */
export function intArg(d: Dialect, x: Fragment): Fragment {
  if (d === 'pg') return tpl('(LEAST(GREATEST($0, -2147483648), 2147483647))::int', x);
  if (d === 'sqlite3') return tpl('CAST(min(max($0, -2147483648), 2147483647) AS INTEGER)', x);
  return x;
}

/**
 * `l op r` that is blank instead of failing. pg: + and - on operands within
 * ±8e307 (their sum stays finite), * and / in exact numeric brought back to
 * float8 (so the result is the double's, and blank past its range). MySQL/
 * MariaDB has no wider type: a product's or quotient's operands must lie
 * within ±1e154 and a divisor beyond ±1e-154. SQLite never fails here; its
 * overflow (Infinity) is made blank too.
 */
export function arithmetic(d: Dialect, op: '+' | '-' | '*' | '/', l: Fragment, r: Fragment): Fragment {
  if (d === 'sqlite3') return finite(op === '/' ? tpl('CAST($0 AS REAL) / NULLIF($1, 0)', l, r) : tpl(`$0 ${op} $1`, l, r));
  if (op === '+' || op === '-') return tpl(`$0 ${op} $1`, inRange(d, l, '8e307'), inRange(d, r, '8e307'));
  if (d === 'pg') return pgDouble(tpl(op === '*' ? '$0 * $1' : '$0 / NULLIF($1, 0)', pgExact(l), pgExact(r)));
  if (op === '*') return tpl('$0 * $1', inRange(d, l, '1e154'), inRange(d, r, '1e154'));
  return tpl('$0 / CASE WHEN ABS($1) >= 1e-154 THEN $1 END', inRange(d, l, '1e154'), r);
}

/** ROUND(x, places): pg rounds the exact numeric (places within ±400). */
export function round(d: Dialect, x: Fragment, places: Fragment): Fragment {
  if (d === 'pg') return pgDouble(tpl('ROUND($0, (LEAST(GREATEST($1, -400), 400))::int)', pgExact(x), places));
  return tpl('ROUND($0, $1)', x, places);
}

/** MOD(a, b), blank when b is 0. */
export function mod(d: Dialect, a: Fragment, b: Fragment): Fragment {
  if (d === 'pg') return pgDouble(tpl('MOD($0, NULLIF($1, 0))', pgExact(a), pgExact(b)));
  return tpl(d === 'mysql2' ? 'MOD($0, NULLIF($1, 0))' : 'mod($0, NULLIF($1, 0))', a, b);
}

/** EXP(x): blank past the double's range, 0 below it. */
export function exp(d: Dialect, x: Fragment): Fragment {
  if (d === 'pg') return pgDouble(tpl('EXP(LEAST(GREATEST($0, -1000), 710))', pgExact(x)));
  if (d === 'mysql2') return tpl('EXP(NULLIF(LEAST($0, 709.78e0), 709.78e0))', x);
  return finite(tpl('EXP($0)', x));
}

/**
 * POWER(a, b): blank for a complex or undefined result (negative base with a
 * fractional exponent, 0 to a negative power) and past the double's range;
 * 0 when it underflows. Names a and b more than once (rarely nested).
 */
export function power(d: Dialect, a: Fragment, b: Fragment): Fragment {
  const head = 'CASE WHEN $0 < 0 AND $1 <> FLOOR($1) THEN NULL WHEN $0 = 0 THEN CASE WHEN $1 < 0 THEN NULL ELSE POWER($0, $1) END';
  if (d === 'sqlite3') return finite(tpl('CASE WHEN $0 < 0 AND $1 <> FLOOR($1) THEN NULL ELSE POWER($0, $1) END', a, b));
  if (d === 'mysql2') {
    return tpl(`${head} WHEN ABS($0) = 1 THEN POWER($0, $1) WHEN $1 * SIGN(LN(ABS($0))) > 709 / ABS(LN(ABS($0))) THEN NULL ELSE POWER($0, $1) END`, a, b);
  }
  const log = '(LN(ABS($0)))::text::numeric * ($1)::text::numeric';
  return tpl(`${head} WHEN ${log} > 709 THEN NULL WHEN ${log} < -740 THEN 0 ELSE POWER($0, $1) END`, a, b);
}

/** LOG(x, base): blank when x or the base is not positive or the base is 1. */
export function log(d: Dialect, x: Fragment, base?: Fragment): Fragment {
  if (!base) return tpl(`CASE WHEN $0 <= 0 THEN NULL ELSE ${d === 'sqlite3' ? 'ln' : 'LN'}($0) END`, x);
  // (MySQL and SQLite: as base-10 logarithms, so LOG(10, 1000) is 3, not 2.9999999999999996.)
  const value = d === 'pg' ? pgDouble(tpl('LOG($1, $0)', pgExact(x), pgExact(base))) : tpl(d === 'mysql2' ? 'ROUND(LOG10($0) / LOG10($1), 14)' : 'ROUND(log10($0) / log10($1), 14)', x, base);
  // (SQLite's LOG(1, x) divides by zero: Infinity, hence the base-1 case here for every dialect.)
  return tpl('CASE WHEN $0 <= 0 OR $1 <= 0 OR $1 = 1 THEN NULL ELSE $2 END', x, base, value);
}
