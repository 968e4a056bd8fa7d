import type { Dialect } from '../column/column.types';
import type { Fragment } from '../compile/sql-fragment';
import { FORMULA_LIMITS } from './formula.ast';
import { asText, tpl, type Compiled } from './formula.sql';

/**
 * The text cap ({@link FORMULA_LIMITS}.maxTextLength), applied in SQL to a
 * formula's text value and inside every function that can lengthen text
 * (CONCAT and `&`, REPT, REPLACE), so that no intermediate grows past a small
 * multiple of the cap however they nest.
 */
const CAP = FORMULA_LIMITS.maxTextLength;

const charLength = (d: Dialect, s: Fragment) => tpl(d === 'sqlite3' ? 'LENGTH($0)' : 'CHAR_LENGTH($0)', s);

/** The first CAP characters of a text. */
export function capText(d: Dialect, s: Fragment): Fragment {
  return tpl(d === 'sqlite3' ? `SUBSTR($0, 1, ${CAP})` : `LEFT($0, ${CAP})`, s);
}

/** A value as text no longer than the cap (literals, numbers, dates and capped results need no cut). */
export function cappedText(d: Dialect, c: Compiled): Fragment {
  const bounded = c.type !== 'string' || c.capped || c.literal !== undefined;
  return bounded ? asText(d, c) : capText(d, asText(d, c));
}

/** CONCAT: joined one part at a time, cut after each, so no step exceeds twice the cap. */
export function concatCapped(d: Dialect, parts: Compiled[]): Fragment {
  const safe = parts.map((p) => tpl(`COALESCE($0, '')`, cappedText(d, p)));
  let joined = safe[0];
  for (const part of safe.slice(1)) joined = capText(d, tpl(d === 'mysql2' ? 'CONCAT($0, $1)' : '$0 || $1', joined, part));
  return joined;
}

/** REPT(s, n): at most 1,000 repetitions and never past the cap (n ≤ cap / length of s). */
export function repeatCapped(d: Dialect, s: Compiled, n: Fragment): Fragment {
  const text = cappedText(d, s);
  if (d === 'sqlite3') {
    return tpl(`REPLACE(hex(zeroblob(min(max($1, 0), 1000, ${CAP} / max(LENGTH($0), 1)))), '00', $0)`, text, n);
  }
  const times = tpl(`LEAST(GREATEST($1, 0), 1000, ${CAP} ${d === 'pg' ? '/' : 'DIV'} GREATEST(CHAR_LENGTH($0), 1))`, text, n);
  return tpl('REPEAT($0, $1)', text, d === 'pg' ? tpl('($0)::int', times) : times);
}

/**
 * REPLACE(s, from, to), cut at the cap. The full result's length is known
 * before it is built (occurrences × the length of `to`); past ten times the
 * cap the value is blank rather than built.
 */
export function replaceCapped(d: Dialect, s: Compiled, from: Compiled, to: Compiled): Fragment {
  const [text, a, b] = [cappedText(d, s), asText(d, from), cappedText(d, to)];
  const removed = tpl('$0 - $1', charLength(d, text), charLength(d, tpl(`REPLACE($0, $1, '')`, text, a)));
  const big = d === 'pg' ? (x: Fragment) => tpl('($0)::bigint', x) : (x: Fragment) => x;
  const fits = tpl(`$0 * $1 <= ${9 * CAP} * $2`, big(removed), charLength(d, b), big(charLength(d, a)));
  return capText(d, tpl('CASE WHEN $0 THEN REPLACE($1, $2, $3) END', fits, text, a, b));
}
