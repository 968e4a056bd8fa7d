import type { Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import type { FormulaType } from './formula.ast';
import { formulaError } from './formula.error';
import { pgDouble, pgExact } from './formula.safe';
import { asDatetime, asText, bound, tpl, type Compiled, type FormulaFunction } from './formula.sql';
import { capText, cappedText, repeatCapped } from './formula.text';

/**
 * NocoDB's functions beyond the first 45: regular expressions, rounding up and
 * down, counting, even/odd, VALUE, URLENCODE, DATESTR, ISNOTBLANK, TRUE/FALSE,
 * the comma-list ARRAY* functions. Every literal stays a bound value.
 */

const isNum = (c: Compiled) => c.type === 'number' || c.type === 'null';
const needNumber = (fn: string, args: Compiled[], at: (i: number) => number, from = 0) => args.forEach((a, i) => {
  if (i >= from && !isNum(a)) throw formulaError(`${fn}: argument ${i + 1} must be a number, not ${a.type}`, at(i));
});
const needText = (fn: string, args: Compiled[], at: (i: number) => number, which: number[]) => which.forEach((i) => {
  const a = args[i];
  if (a && !['string', 'number', 'date', 'datetime', 'null'].includes(a.type)) throw formulaError(`${fn}: argument ${i + 1} must be text, not ${a.type}`, at(i));
});
const pgFloat = (d: Dialect, c: Compiled) => (d === 'pg' ? tpl('($0)::float8', c.sql) : c.sql);

/**
 * ROUNDUP/ROUNDDOWN as NocoDB computes them: x scaled by 10^places, CEIL (up,
 * toward +∞) or FLOOR (down, toward -∞), scaled back: ROUNDDOWN(-2.349, 2) is -2.35.
 */
function roundAway(d: Dialect, x: Compiled, places: Compiled | undefined, up: boolean): Fragment {
  const fn = up ? (d === 'sqlite3' ? 'ceil' : 'CEILING') : 'FLOOR';
  const p = places ? places.sql : bound(0);
  if (d === 'pg') {
    const pl = tpl('(LEAST(GREATEST($0, -300), 300))::int', tpl('TRUNC(($0)::float8)', p));
    // 10^|places| only: numeric's POWER(10, -300) rounds to 0 at its default scale (a division by zero)
    const scale = tpl('POWER(10::numeric, ABS($0))', pl);
    return pgDouble(tpl(`CASE WHEN $2 >= 0 THEN ${fn}($0 * $1) / $1 ELSE ${fn}($0 / $1) * $1 END`, pgExact(pgFloat(d, x)), scale, pl));
  }
  // Places within -290…15 (a double has no more digits); past 1e290 (or 1e15 with places ≥ 0) x is its own
  // rounding, so the scaled value stays finite (MySQL fails the statement on an overflow). A double scaled
  // by 10^places is rounded to 9 places first: 1.1 × 10 is 11.000000000000002.
  const pl = tpl(d === 'sqlite3' ? 'CAST(min(max($0, -290), 15) AS INTEGER)' : 'TRUNCATE(LEAST(GREATEST($0, -290), 15), 0)', p);
  const scale = tpl(d === 'sqlite3' ? 'POWER(10, $0)' : 'POW(10, $0)', pl);
  return tpl(`CASE WHEN ABS($0) >= 1e290 OR ($2 >= 0 AND ABS($0) >= 1e15) THEN $0 ELSE ${fn}(ROUND($0 * $1, 9)) / $1 END`, x.sql, scale, pl);
}

/** EVEN/ODD: away from zero to the next even (odd) integer. */
function evenOdd(d: Dialect, x: Compiled, odd: boolean): Fragment {
  const ceil = d === 'sqlite3' ? 'ceil' : 'CEILING';
  const v = pgFloat(d, x);
  if (!odd) return tpl(`SIGN($0) * ${ceil}(ABS($0) / 2.0) * 2`, v);
  return tpl(`CASE WHEN $0 < 0 THEN -1 ELSE 1 END * (${ceil}((ABS($0) - 1) / 2.0) * 2 + 1)`, v);
}

/** Whether a value counts for COUNTA: not blank, and for text not empty. */
function present(c: Compiled): Fragment {
  if (c.type === 'null') return new Fragment('0', []);
  if (c.type === 'string') return tpl(`CASE WHEN $0 IS NULL OR $0 = '' THEN 0 ELSE 1 END`, c.sql);
  return tpl('CASE WHEN $0 IS NULL THEN 0 ELSE 1 END', c.sql);
}

const sumOf = (parts: Fragment[]) => new Fragment(`(${parts.map((p) => `(${p.sql})`).join(' + ')})`, parts.flatMap((p) => p.bindings));

/** A literal pattern must compile (a bad one would fail every read on PostgreSQL and MariaDB). */
function checkPattern(fn: string, pattern: Compiled, pos: number): void {
  if (pattern.type !== 'string' && pattern.type !== 'null') throw formulaError(`${fn}: the pattern must be text, not ${pattern.type}`, pos);
  if (typeof pattern.literal !== 'string') throw formulaError(`${fn}: the pattern must be a text literal such as "[0-9]+"`, pos);
  try {
    new RegExp(pattern.literal);
  } catch {
    throw formulaError(`${fn}: invalid regular expression "${pattern.literal}"`, pos);
  }
  if (/\(\?<?[=!]|\\[1-9]|\(\?</.test(pattern.literal)) throw formulaError(`${fn}: look-around, back-references and named groups are not supported`, pos);
}

/** Whether a literal pattern has a capturing group (REGEX_EXTRACT then answers the first group). */
const hasGroup = (pattern: string) => /(^|[^\\])\((?!\?)/.test(pattern);

/** ASCII characters URLENCODE escapes (encodeURIComponent's set), `%` first. */
const URL_ESCAPES = ['%', ' ', '"', '#', '$', '&', '+', ',', '/', ':', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '^', '`', '{', '|', '}'];

function urlEncode(d: Dialect, s: Fragment): Fragment {
  const codes = URL_ESCAPES.flatMap((ch) => [ch, `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`]);
  if (d === 'sqlite3') {
    // SQLite's parser stack is shallow: one step per common table expression, none nested in another.
    const steps = URL_ESCAPES.map((_, i) => `u${i + 1}(v) AS (SELECT REPLACE(v, ?, ?) FROM u${i})`);
    return capText(d, new Fragment(`(WITH u0(v) AS (SELECT ${s.sql}), ${steps.join(', ')} SELECT v FROM u${URL_ESCAPES.length})`, [...s.bindings, ...codes]));
  }
  const out = new Fragment(`${'REPLACE('.repeat(URL_ESCAPES.length)}(${s.sql})${', ?, ?)'.repeat(URL_ESCAPES.length)}`, [...s.bindings, ...codes]);
  // Each replacement at most triples a character: cut at the text cap.
  return capText(d, out);
}

const NOT_NUMBER = '[^0-9.eE+-]';
const NUMBER = '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?$';

/** VALUE(text): the number in a text, ignoring currency signs, spaces and thousands separators. */
function value(d: Dialect, s: Fragment): Fragment {
  // A percentage is a fraction: VALUE("12.5%") is 0.125 (NocoDB's answer).
  return tpl(`CASE WHEN $0 LIKE '%!%%' ESCAPE '!' THEN $1 / 100 ELSE $1 END`, s, number(d, s));
}

function number(d: Dialect, s: Fragment): Fragment {
  if (d === 'pg') {
    const cleaned = tpl(`regexp_replace($0, $1, '', 'g')`, s, bound(NOT_NUMBER));
    return tpl(`CASE WHEN $0 ~ $1 THEN ($0)::float8 END`, cleaned, bound(NUMBER));
  }
  if (d === 'mysql2') {
    const cleaned = tpl(`REGEXP_REPLACE($0, $1, '')`, s, bound(NOT_NUMBER));
    return tpl(`CASE WHEN $0 REGEXP $1 THEN ($0) + 0e0 END`, cleaned, bound(NUMBER));
  }
  // SQLite has no regular expressions: the common separators and signs are removed, the rest must be a number.
  let cleaned = s;
  for (const ch of [' ', ',', '$', '€', '£', '¥', '%']) cleaned = tpl('REPLACE($0, $1, \'\')', cleaned, bound(ch));
  return tpl(`CASE WHEN $0 = '' OR $0 GLOB '*[^0-9.eE+-]*' OR $0 GLOB '*[eE]*[eE]*' OR $0 GLOB '*.*.*' THEN NULL ELSE CAST($0 AS REAL) END`, cleaned);
}

/** MariaDB: patterns case-sensitive as on PostgreSQL (the column collation would make them not). */
const cs = (d: Dialect, p: Fragment) => (d === 'mysql2' ? tpl('CONCAT($0, $1)', bound('(?-i)'), p) : p);

function regexMatch(d: Dialect, s: Fragment, p: Fragment): Fragment {
  return tpl(d === 'pg' ? '$0 ~ $1' : '$0 REGEXP $1', s, cs(d, p));
}

function regexExtract(d: Dialect, s: Fragment, p: Compiled): Fragment {
  const group = typeof p.literal === 'string' && hasGroup(p.literal);
  // pg: regexp_match answers the groups; without one, the whole match is made the group.
  if (d === 'pg') return tpl('(regexp_match($0, $1))[1]', s, group ? p.sql : tpl(`'(' || $0 || ')'`, p.sql));
  const pattern = cs(d, p.sql);
  const whole = tpl('REGEXP_SUBSTR($0, $1)', s, pattern);
  // MariaDB's REGEXP_SUBSTR answers the whole match; the first group is taken from it.
  return group
    ? tpl(`CASE WHEN $0 REGEXP $1 THEN REGEXP_REPLACE($2, CONCAT($4, $3, $5), $6) END`, s, pattern, whole, p.sql, bound('(?-i)^(?:'), bound(')$'), bound('\\1'))
    : tpl('CASE WHEN $0 REGEXP $1 THEN $2 END', s, pattern, whole);
}

function regexReplace(d: Dialect, s: Fragment, p: Fragment, r: Fragment): Fragment {
  return capText(d, d === 'pg' ? tpl(`regexp_replace($0, $1, $2, 'g')`, s, p, r) : tpl('REGEXP_REPLACE($0, $1, $2)', s, cs(d, p), r));
}

const noSqlite = (fn: string) => (d: Dialect) => (d === 'sqlite3' ? `${fn} is not available on SQLite (it has no regular expressions)` : undefined);

/** The days WEEKDAY may start a week on (NocoDB's names), as ISO day numbers (Monday 1). */
const WEEK_START: Record<string, number> = { monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6, sunday: 7 };

/** WEEKDAY(date, start?): 0 for the start day (Monday by default) to 6. */
export function weekday(d: Dialect, x: Compiled, start: number): Fragment {
  const iso = d === 'pg' ? tpl('EXTRACT(ISODOW FROM $0)', asDatetime(d, x)) : d === 'mysql2' ? tpl('(WEEKDAY($0) + 1)', x.sql) : tpl(`((CAST(strftime('%w', $0) AS INTEGER) + 6) % 7 + 1)`, x.sql);
  const v = tpl(`(($0) - ${start} + 7) % 7`, iso);
  return d === 'pg' ? tpl('($0)::float8', v) : v;
}

export function weekStart(arg: Compiled | undefined, pos: number): number {
  if (!arg) return 1;
  const raw = typeof arg.literal === 'string' ? arg.literal.toLowerCase() : undefined;
  const n = raw === undefined ? undefined : WEEK_START[raw];
  if (!n) throw formulaError('WEEKDAY: the start of the week must be a day name such as "sunday"', pos);
  return n;
}

/** ARRAY* functions read a comma-separated list (a MultiSelect, a text). */
function listArg(fn: string, args: Compiled[], at: (i: number) => number) {
  needText(fn, args, at, [0]);
}

/** Splits a comma list into rows `(pos, v)` (a recursive CTE, on every dialect). */
function listItems(d: Dialect, s: Fragment): Fragment {
  const len = d === 'sqlite3' ? 'LENGTH' : 'CHAR_LENGTH';
  const instr = d === 'pg' ? (a: string, b: string) => `STRPOS(${a}, ${b})` : (a: string, b: string) => `INSTR(${a}, ${b})`;
  const sub = d === 'pg' ? (a: string, f: string, n?: string) => (n ? `SUBSTRING(${a} FROM ${f} FOR ${n})` : `SUBSTRING(${a} FROM ${f})`) : (a: string, f: string, n?: string) => (n ? `SUBSTR(${a}, ${f}, ${n})` : `SUBSTR(${a}, ${f})`);
  const cat = d === 'mysql2' ? (a: string, b: string) => `CONCAT(${a}, ${b})` : (a: string, b: string) => `${a} || ${b}`;
  const rest0 = cat('$0', `','`);
  const head = `TRIM(${sub('r.rest', '1', `${instr('r.rest', `','`)} - 1`)})`;
  const tail = sub('r.rest', `${instr('r.rest', `','`)} + 1`);
  const restType = d === 'pg' ? '::text' : '';
  // (pg and MySQL want the recursive column's type fixed by its first row.)
  return tpl(`WITH RECURSIVE r(n, v, rest) AS (SELECT 0, CAST(NULL AS ${d === 'mysql2' ? 'CHAR(10000)' : 'TEXT'}), CAST(${rest0} AS ${d === 'mysql2' ? 'CHAR(10000)' : 'TEXT'})${restType} WHERE $0 IS NOT NULL AND ${len}($0) > 0`
    + ` UNION ALL SELECT n + 1, ${head}, ${tail} FROM r WHERE ${len}(r.rest) > 0 AND n < 1000) SELECT n, v FROM r WHERE n > 0`, s);
}

function groupConcat(d: Dialect, expr: string, order: string): string {
  if (d === 'pg') return `STRING_AGG(${expr}, ',' ORDER BY ${order})`;
  if (d === 'mysql2') return `GROUP_CONCAT(${expr} ORDER BY ${order} SEPARATOR ',')`;
  return `GROUP_CONCAT(${expr}, ',')`;
}

/** 1…1000 as a derived table (MariaDB/MySQL: no outer reference may enter a CTE or derived table). */
const DIGITS = '(SELECT 0 AS i UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
const SEQ = `(SELECT d0.i + 10 * d1.i + 100 * d2.i + 1 AS n FROM ${DIGITS} AS d0 CROSS JOIN ${DIGITS} AS d1 CROSS JOIN ${DIGITS} AS d2)`;

function mysqlArray(s: Fragment, kind: 'sort' | 'sortdesc' | 'unique' | 'compact' | 'slice', from?: Fragment, to?: Fragment): Fragment {
  // The n-th item: SUBSTRING_INDEX(SUBSTRING_INDEX(s, ',', n), ',', -1); s named by a bound-free template.
  const item = "TRIM(SUBSTRING_INDEX(SUBSTRING_INDEX($0, ',', seq.n), ',', -1))";
  const count = `(CHAR_LENGTH($0) - CHAR_LENGTH(REPLACE($0, ',', '')) + 1)`;
  let where = `$0 IS NOT NULL AND $0 <> '' AND seq.n <= ${count}`;
  let order = 'seq.n';
  if (kind === 'compact') where += ` AND ${item} <> ''`;
  if (kind === 'unique') where += ` AND NOT EXISTS (SELECT 1 FROM ${SEQ} AS prev WHERE prev.n < seq.n AND TRIM(SUBSTRING_INDEX(SUBSTRING_INDEX($0, ',', prev.n), ',', -1)) = ${item})`;
  if (kind === 'sort' || kind === 'sortdesc') order = `${item} ${kind === 'sort' ? 'ASC' : 'DESC'}`;
  if (kind === 'slice') where += ' AND seq.n >= $1 AND seq.n <= $2';
  return tpl(`(SELECT GROUP_CONCAT(${item} ORDER BY ${order} SEPARATOR ',') FROM ${SEQ} AS seq WHERE ${where})`, s, from ?? bound(1), to ?? bound(1000));
}

function arrayFn(d: Dialect, s: Fragment, kind: 'sort' | 'sortdesc' | 'unique' | 'compact' | 'slice', from?: Fragment, to?: Fragment): Fragment {
  if (d === 'mysql2') return mysqlArray(s, kind, from, to);
  // Built as: WITH RECURSIVE r(...) AS (...) SELECT agg FROM (SELECT n, v FROM r WHERE n > 0) AS items WHERE …
  const items = listItems(d, s);
  const body = items.sql.replace(/ SELECT n, v FROM r WHERE n > 0$/, '');
  let where = '1 = 1';
  let agg: string;
  const bindings = [...items.bindings];
  let sub = 'SELECT n, v FROM r WHERE n > 0';
  if (kind === 'unique') sub = 'SELECT MIN(n) AS n, v FROM r WHERE n > 0 GROUP BY v';
  if (kind === 'compact') where = `items.v IS NOT NULL AND items.v <> ''`;
  if (kind === 'slice') {
    bindings.push(...(from?.bindings ?? []), ...(to?.bindings ?? []));
    where = `items.n >= (${from?.sql ?? '1'}) AND items.n <= (${to?.sql ?? '1000'})`;
  }
  if (kind === 'sort' || kind === 'sortdesc') {
    const dir = kind === 'sort' ? 'ASC' : 'DESC';
    const order = `items.v ${dir}`;
    agg = d === 'sqlite3' ? `(SELECT GROUP_CONCAT(v, ',') FROM (SELECT items.v FROM (${sub}) AS items ORDER BY ${order}))` : groupConcat(d, 'items.v', order);
    if (d === 'sqlite3') return new Fragment(`(${body} SELECT GROUP_CONCAT(v, ',') FROM (SELECT items.v AS v FROM (${sub}) AS items WHERE ${where} ORDER BY ${order}) AS o)`, bindings);
  } else {
    agg = groupConcat(d, 'items.v', 'items.n');
    if (d === 'sqlite3') return new Fragment(`(${body} SELECT GROUP_CONCAT(v, ',') FROM (SELECT items.v AS v FROM (${sub}) AS items WHERE ${where} ORDER BY items.n) AS o)`, bindings);
  }
  return new Fragment(`(${body} SELECT ${agg} FROM (${sub}) AS items WHERE ${where})`, bindings);
}

const textType = (fn: string, which: number[], result: FormulaType) => (a: Compiled[], at: (i: number) => number) => { needText(fn, a, at, which); return result; };

/** The functions added to {@link FUNCTIONS}. */
export const libraryFunctions: Record<string, FormulaFunction> = {
  WEEKDAY: {
    min: 1, max: 2,
    type: (a, at) => {
      if (!['date', 'datetime', 'null'].includes(a[0].type)) throw formulaError(`WEEKDAY: argument must be a date, not ${a[0].type}`, at(0));
      weekStart(a[1], at(1));
      return 'number';
    },
    sql: (d, [x, start]) => weekday(d, x, weekStart(start, 0)),
  },
  ROUNDUP: { min: 1, max: 2, type: (a, at) => { needNumber('ROUNDUP', a, at); return 'number'; }, sql: (d, [x, p]) => roundAway(d, x, p, true) },
  ROUNDDOWN: { min: 1, max: 2, type: (a, at) => { needNumber('ROUNDDOWN', a, at); return 'number'; }, sql: (d, [x, p]) => roundAway(d, x, p, false) },
  EVEN: { min: 1, max: 1, type: (a, at) => { needNumber('EVEN', a, at); return 'number'; }, sql: (d, [x]) => evenOdd(d, x, false) },
  ODD: { min: 1, max: 1, type: (a, at) => { needNumber('ODD', a, at); return 'number'; }, sql: (d, [x]) => evenOdd(d, x, true) },
  COUNT: {
    min: 1, max: 255, type: () => 'number',
    sql: (_d, a) => sumOf(a.map((c) => (c.type === 'number' ? tpl('CASE WHEN $0 IS NULL THEN 0 ELSE 1 END', c.sql) : new Fragment('0', [])))),
  },
  COUNTA: { min: 1, max: 255, type: () => 'number', sql: (_d, a) => sumOf(a.map(present)) },
  COUNTALL: { min: 1, max: 255, type: () => 'number', sql: (_d, a) => new Fragment(`${a.length}`, []) },
  VALUE: { min: 1, max: 1, type: textType('VALUE', [0], 'number'), sql: (d, [s]) => value(d, asText(d, s)) },
  URLENCODE: { min: 1, max: 1, type: textType('URLENCODE', [0], 'string'), sql: (d, [s]) => urlEncode(d, cappedText(d, s)), capped: true },
  REPEAT: { min: 2, max: 2, type: (a, at) => { needText('REPEAT', a, at, [0]); needNumber('REPEAT', a, at, 1); return 'string'; }, sql: (d, [s, n]) => repeatCapped(d, s, n.sql), capped: true },
  DATESTR: {
    min: 1, max: 1,
    type: (a, at) => { if (!['date', 'datetime', 'null'].includes(a[0].type)) throw formulaError(`DATESTR: argument must be a date, not ${a[0].type}`, at(0)); return 'string'; },
    sql: (d, [x]) => (d === 'pg' ? tpl(`to_char($0, 'YYYY-MM-DD')`, asDatetime(d, x)) : d === 'mysql2' ? tpl(`DATE_FORMAT($0, '%Y-%m-%d')`, x.sql) : tpl(`strftime('%Y-%m-%d', $0)`, x.sql)),
  },
  ISNOTBLANK: {
    min: 1, max: 1, type: () => 'boolean',
    sql: (_d, [x]) => (x.type === 'string' ? tpl(`$0 IS NOT NULL AND $0 <> ''`, x.sql) : x.type === 'null' ? new Fragment('1 = 0', []) : tpl('$0 IS NOT NULL', x.sql)),
  },
  // NocoDB answers TRUE() and FALSE() as the numbers 1 and 0.
  TRUE: { min: 0, max: 0, type: () => 'number', sql: (d) => new Fragment(d === 'pg' ? '(1)::float8' : '1', []) },
  FALSE: { min: 0, max: 0, type: () => 'number', sql: (d) => new Fragment(d === 'pg' ? '(0)::float8' : '0', []) },
  XOR: {
    min: 1, max: 255, type: () => 'boolean',
    // An odd number of true arguments.
    sql: (_d, a) => tpl('MOD($0, 2) = 1', sumOf(a.map((c) => tpl('CASE WHEN $0 THEN 1 ELSE 0 END', conditionOf(c))))),
  },
  REGEX_MATCH: {
    // 1 or 0 (NocoDB's answer; a blank text matches nothing).
    min: 2, max: 2, type: textType('REGEX_MATCH', [0], 'number'), unsupportedOn: noSqlite('REGEX_MATCH'),
    check: (a, at) => checkPattern('REGEX_MATCH', a[1], at(1)),
    sql: (d, [s, p]) => tpl('CASE WHEN $0 THEN 1 ELSE 0 END', regexMatch(d, asText(d, s), p.sql)),
  },
  REGEX_EXTRACT: {
    min: 2, max: 2, type: textType('REGEX_EXTRACT', [0], 'string'), unsupportedOn: noSqlite('REGEX_EXTRACT'),
    check: (a, at) => checkPattern('REGEX_EXTRACT', a[1], at(1)),
    sql: (d, [s, p]) => regexExtract(d, cappedText(d, s), p), capped: true,
  },
  REGEX_REPLACE: {
    min: 3, max: 3, type: textType('REGEX_REPLACE', [0, 2], 'string'), unsupportedOn: noSqlite('REGEX_REPLACE'),
    check: (a, at) => checkPattern('REGEX_REPLACE', a[1], at(1)),
    sql: (d, [s, p, r]) => regexReplace(d, cappedText(d, s), p.sql, cappedText(d, r)), capped: true,
  },
  JSON_EXTRACT: {
    min: 2, max: 2,
    type: (a, at) => { needText('JSON_EXTRACT', a, at, [0]); jsonPath(a[1], at(1)); return 'string'; },
    // PostgreSQL 15 cannot test text for JSON without failing the statement: there the text must be a JSON field or a literal.
    check: (a, at) => {
      const [src] = a;
      if (typeof src.literal === 'string') {
        try { JSON.parse(src.literal); } catch { throw formulaError('JSON_EXTRACT: the text is not JSON', at(0)); }
      }
    },
    sql: (d, [s, p]) => jsonExtract(d, s, jsonPath(p, 0)),
  },
  ARRAYSORT: {
    min: 1, max: 2, type: (a, at) => { listArg('ARRAYSORT', a, at); sortDir(a[1], at(1)); return 'string'; },
    sql: (d, [s, dir]) => arrayFn(d, cappedText(d, s), sortDir(dir, 0) === 'desc' ? 'sortdesc' : 'sort'), capped: true,
  },
  ARRAYUNIQUE: { min: 1, max: 1, type: (a, at) => { listArg('ARRAYUNIQUE', a, at); return 'string'; }, sql: (d, [s]) => arrayFn(d, cappedText(d, s), 'unique'), capped: true },
  ARRAYCOMPACT: { min: 1, max: 1, type: (a, at) => { listArg('ARRAYCOMPACT', a, at); return 'string'; }, sql: (d, [s]) => arrayFn(d, cappedText(d, s), 'compact'), capped: true },
  ARRAYSLICE: {
    min: 2, max: 3, type: (a, at) => { listArg('ARRAYSLICE', a, at); needNumber('ARRAYSLICE', a, at, 1); return 'string'; },
    sql: (d, [s, from, to]) => arrayFn(d, cappedText(d, s), 'slice', from.sql, to?.sql), capped: true,
  },
};

/** A jq-like path (`.a.b`, `.items[0].name`) as its keys and indices. */
function jsonPath(arg: Compiled, pos: number): (string | number)[] {
  const raw = arg.literal;
  const fail = () => formulaError('JSON_EXTRACT: the path must be a text literal such as ".a.b" or ".items[0]"', pos);
  if (typeof raw !== 'string') throw fail();
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d{1,6})\]|\.(?=$)/y;
  let i = 0;
  if (raw === '' || raw === '.') return out;
  while (i < raw.length) {
    re.lastIndex = i;
    const m = re.exec(raw);
    if (!m || m[0] === '') throw fail();
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    i = re.lastIndex;
  }
  if (out.length > 32) throw fail();
  return out;
}

/** JSON_EXTRACT(json, path): the value at the path as text (objects and arrays as JSON); blank when missing or not JSON. */
function jsonExtract(d: Dialect, s: Compiled, path: (string | number)[]): Fragment {
  const text = asText(d, s);
  if (d === 'pg') {
    if (!s.json && s.literal === undefined && s.type !== 'null') throw formulaError('JSON_EXTRACT: on PostgreSQL the text must be a JSON field or a text literal');
    if (!path.length) return tpl('(($0)::jsonb)::text', text);
    return new Fragment(`jsonb_extract_path_text((${text.sql})::jsonb, ${path.map(() => '?').join(', ')})`, [...text.bindings, ...path.map(String)]);
  }
  const p = `$${path.map((k) => (typeof k === 'number' ? `[${k}]` : `."${k}"`)).join('')}`;
  if (d === 'mysql2') return tpl('CASE WHEN JSON_VALID($0) THEN JSON_UNQUOTE(JSON_EXTRACT($0, $1)) END', text, bound(p));
  return tpl('CASE WHEN json_valid($0) THEN CAST(json_extract($0, $1) AS TEXT) END', text, bound(p));
}

function sortDir(arg: Compiled | undefined, pos: number): 'asc' | 'desc' {
  if (!arg) return 'asc';
  const raw = typeof arg.literal === 'string' ? arg.literal.toLowerCase() : undefined;
  if (raw !== 'asc' && raw !== 'desc') throw formulaError('ARRAYSORT: the order must be "asc" or "desc"', pos);
  return raw;
}

function conditionOf(c: Compiled): Fragment {
  switch (c.type) {
    case 'boolean': return c.sql;
    case 'number': return tpl('$0 <> 0', c.sql);
    case 'string': return tpl(`$0 IS NOT NULL AND $0 <> ''`, c.sql);
    case 'null': return new Fragment('1 = 0', []);
    default: return tpl('$0 IS NOT NULL', c.sql);
  }
}
