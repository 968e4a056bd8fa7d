import type { Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import type { FormulaType } from './formula.ast';
import { formulaError } from './formula.error';
import { asCondition, asDatetime, asText, bound, joined, tpl, type Compiled, type FormulaFunction } from './formula.sql';
import { dateFunctions } from './formula.dates';
import { arithmetic, exp, intArg, log, mod, power, round } from './formula.safe';
import { concatCapped, repeatCapped, replaceCapped } from './formula.text';
import { libraryFunctions } from './formula.library';

/** One function of the formula language. */
export type { FormulaFunction } from './formula.sql';

type Kind = 'number' | 'text' | 'any' | 'date' | 'bool';

const ACCEPTS: Record<Kind, FormulaType[]> = {
  number: ['number', 'null'],
  text: ['string', 'number', 'date', 'datetime', 'null'],
  any: ['number', 'string', 'boolean', 'date', 'datetime', 'null'],
  // (A date literal is a date by now: other text would fail every read on PostgreSQL.)
  date: ['date', 'datetime', 'null'],
  bool: ['boolean', 'number', 'string', 'null'],
};

function check(name: string, kinds: Kind[], rest?: Kind) {
  return (args: Compiled[], at: (i: number) => number) => {
    args.forEach((a, i) => {
      const kind = kinds[i] ?? rest ?? 'any';
      if (!ACCEPTS[kind].includes(a.type)) throw formulaError(`${name}: argument ${i + 1} must be ${kind === 'text' ? 'text' : kind === 'bool' ? 'a condition' : `a ${kind}`}, not ${a.type}`, at(i));
    });
  };
}

/** pg: BLANK() as a float8 NULL (an untyped NULL makes TRUNC, ROUND… ambiguous). */
const typedNull = (d: Dialect, a: Compiled[]) => (d === 'pg' ? a.map((x) => (x.type === 'null' ? { ...x, sql: new Fragment('(NULL)::float8', []) } : x)) : a);
const num = (name: string, min: number, max: number, sql: FormulaFunction['sql']): FormulaFunction => ({
  min, max, type: (a, at) => { check(name, [], 'number')(a, at); return 'number'; }, sql: (d, a) => sql(d, typedNull(d, a)),
});
const text = (name: string, kinds: Kind[], result: FormulaType, sql: FormulaFunction['sql'], min = kinds.length, max = kinds.length, capped = false): FormulaFunction => ({
  min, max, type: (a, at) => { check(name, kinds)(a, at); return result; }, sql, capped,
});

const t = (d: Dialect, c: Compiled) => asText(d, c);
const f = (c: Compiled) => c.sql;
/** pg: an argument as float8 (BLANK() is an untyped NULL). */
const pgFloat = (x: Fragment) => tpl('($0)::float8', x);
const unsafeNull = (cond: string, x: Fragment, expr: Fragment) => tpl(`CASE WHEN ${cond} THEN NULL ELSE $1 END`, x, expr);

const len = (d: Dialect, s: Fragment) => tpl(d === 'sqlite3' ? 'LENGTH($0)' : 'CHAR_LENGTH($0)', s);
const greatest0 = (d: Dialect, n: Fragment) => tpl(d === 'sqlite3' ? 'max($0, 0)' : 'GREATEST($0, 0)', n);

/** A number argument with blank as 0 (ADD, AVG). */
const zeroIfBlank = (c: Compiled): Compiled => ({ ...c, sql: c.type === 'null' ? new Fragment('0', []) : tpl('COALESCE($0, 0)', c.sql) });

/**
 * MIN/MAX skipping blanks: pg's LEAST/GREATEST do; elsewhere each argument
 * stands in for itself or, when blank, for the first other one not blank.
 */
function extreme(d: Dialect, a: Compiled[], fn: string): Fragment {
  if (a.length === 1) return f(a[0]);
  if (d === 'pg') return tpl(`${fn}(${a.map((_, i) => `$${i}`).join(', ')})`, ...a.map(f));
  const each = a.map((_, i) => `COALESCE(${[i, ...a.map((__, j) => j).filter((j) => j !== i)].map((j) => `$${j}`).join(', ')})`);
  return tpl(`${fn}(${each.join(', ')})`, ...a.map(f));
}

/** ADD: a sum of guarded additions (see formula.safe). */
const sum = (d: Dialect, a: Compiled[]) => a.map(f).reduce((acc, x) => arithmetic(d, '+', acc, x));

/** A condition that is false, not unknown, when its value is blank. */
const definite = (c: Compiled) => tpl('CASE WHEN $0 THEN 1 = 1 ELSE 1 = 0 END', asCondition(c));

function ifThenElse(cond: Fragment, a: Fragment, b: Fragment): Fragment {
  return tpl('CASE WHEN $0 THEN $1 ELSE $2 END', cond, a, b);
}

/** The result type of branches that may differ (IF, SWITCH). */
export function unify(types: FormulaType[]): FormulaType {
  const real = [...new Set(types.filter((x) => x !== 'null'))];
  if (real.length === 0) return 'null';
  if (real.length === 1) return real[0];
  if (real.every((x) => x === 'date' || x === 'datetime')) return 'datetime';
  return 'string';
}

/** Brings a branch to the unified type. */
export function castTo(d: Dialect, c: Compiled, type: FormulaType): Fragment {
  if (c.type === type || c.type === 'null') return c.sql;
  if (type === 'datetime') return asDatetime(d, c);
  return asText(d, c);
}

const DATE_PART: Record<string, { pg: string; mysql: string; sqlite: string }> = {
  DAY: { pg: 'DAY', mysql: 'DAY', sqlite: '%d' },
  MONTH: { pg: 'MONTH', mysql: 'MONTH', sqlite: '%m' },
  YEAR: { pg: 'YEAR', mysql: 'YEAR', sqlite: '%Y' },
  HOUR: { pg: 'HOUR', mysql: 'HOUR', sqlite: '%H' },
  MINUTE: { pg: 'MINUTE', mysql: 'MINUTE', sqlite: '%M' },
  SECOND: { pg: 'SECOND', mysql: 'SECOND', sqlite: '%S' },
};

function datePart(part: keyof typeof DATE_PART): FormulaFunction {
  const p = DATE_PART[part];
  return {
    min: 1, max: 1,
    type: (a, at) => { check(part, ['date'])(a, at); return 'number'; },
    sql: (d, [x]) => {
      // pg: a date as a timestamp (EXTRACT(HOUR FROM date) is an error on PostgreSQL 14+).
      if (d === 'pg') return tpl(`TRUNC(EXTRACT(${p.pg} FROM $0))::float8`, asDatetime(d, x));
      if (d === 'mysql2') return tpl(`${p.mysql}($0)`, f(x));
      return tpl(`CAST(strftime('${p.sqlite}', $0) AS INTEGER)`, f(x));
    },
  };
}

/** Every function, by upper-case name (README "Formulas" lists them). */
export const FUNCTIONS: Record<string, FormulaFunction> = {
  // As NocoDB: ADD and AVG count a blank as 0; MIN and MAX skip blanks (blank when all are).
  ADD: num('ADD', 1, 255, (d, a) => sum(d, a.map(zeroIfBlank))),
  AVG: num('AVG', 1, 255, (d, a) => (d === 'pg' ? arithmetic(d, '/', sum(d, a.map(zeroIfBlank)), new Fragment(`${a.length}`, [])) : tpl(`($0) / ${a.length}.0`, sum(d, a.map(zeroIfBlank))))),
  MIN: num('MIN', 1, 255, (d, a) => extreme(d, a, d === 'sqlite3' ? 'min' : 'LEAST')),
  MAX: num('MAX', 1, 255, (d, a) => extreme(d, a, d === 'sqlite3' ? 'max' : 'GREATEST')),
  ROUND: num('ROUND', 1, 2, (d, [x, p]) => round(d, f(x), p ? f(p) : bound(0))),
  MOD: num('MOD', 2, 2, (d, [a, b]) => mod(d, f(a), f(b))),
  POWER: num('POWER', 2, 2, (d, [a, b]) => (d === 'pg' ? power(d, pgFloat(f(a)), pgFloat(f(b))) : power(d, f(a), f(b)))),
  SQRT: num('SQRT', 1, 1, (d, [x]) => unsafeNull('$0 < 0', f(x), tpl('SQRT($0)', f(x)))),
  EXP: num('EXP', 1, 1, (d, [x]) => exp(d, f(x))),
  // NocoDB's order: LOG(base, x); LOG(x) is the base-10 logarithm.
  LOG: num('LOG', 1, 2, (d, [a, b]) => (b ? log(d, f(b), f(a)) : log(d, f(a), d === 'pg' ? new Fragment('(10)::float8', []) : bound(10)))),
  // SQLite: ABS of the smallest integer is an overflow error; that one value is blank.
  ABS: num('ABS', 1, 1, (d, [x]) => tpl(d === 'sqlite3' ? 'ABS(NULLIF($0, -9223372036854775808))' : 'ABS($0)', f(x))),
  CEILING: num('CEILING', 1, 1, (d, [x]) => tpl(d === 'sqlite3' ? 'ceil($0)' : 'CEILING($0)', f(x))),
  FLOOR: num('FLOOR', 1, 1, (_d, [x]) => tpl('FLOOR($0)', f(x))),
  INT: num('INT', 1, 1, (d, [x]) => tpl(d === 'pg' ? 'TRUNC($0)' : d === 'mysql2' ? 'TRUNCATE($0, 0)' : 'CAST($0 AS INTEGER)', f(x))),
  CONCAT: text('CONCAT', [], 'string', (d, a) => concatCapped(d, a), 1, 255, true),
  LEN: text('LEN', ['text'], 'number', (d, [s]) => len(d, t(d, s))),
  LOWER: text('LOWER', ['text'], 'string', (d, [s]) => tpl('LOWER($0)', t(d, s))),
  UPPER: text('UPPER', ['text'], 'string', (d, [s]) => tpl('UPPER($0)', t(d, s))),
  TRIM: text('TRIM', ['text'], 'string', (d, [s]) => tpl('TRIM($0)', t(d, s))),
  URL: text('URL', ['text'], 'string', (d, [s]) => t(d, s)),
  LEFT: text('LEFT', ['text', 'number'], 'string', (d, [s, n]) => d === 'sqlite3'
    ? tpl('SUBSTR($0, 1, $1)', t(d, s), intArg(d, greatest0(d, f(n))))
    : tpl('LEFT($0, $1)', t(d, s), intArg(d, greatest0(d, f(n))))),
  RIGHT: text('RIGHT', ['text', 'number'], 'string', (d, [s, n]) => d === 'sqlite3'
    ? tpl(`CASE WHEN $1 <= 0 THEN '' ELSE SUBSTR($0, -($1), $1) END`, t(d, s), intArg(d, f(n)))
    : tpl('RIGHT($0, $1)', t(d, s), intArg(d, greatest0(d, f(n))))),
  MID: text('MID', ['text', 'number', 'number'], 'string', (d, [s, start, count]) => substr(d, t(d, s), f(start), f(count))),
  SUBSTR: text('SUBSTR', ['text', 'number', 'number'], 'string', (d, [s, start, count]) => substr(d, t(d, s), f(start), count && f(count)), 2, 3),
  REPLACE: text('REPLACE', ['text', 'text', 'text'], 'string', (d, [s, a, b]) => replaceCapped(d, s, a, b), 3, 3, true),
  SEARCH: text('SEARCH', ['text', 'text'], 'number', (d, [s, needle]) => d === 'pg'
    ? tpl('STRPOS($0, $1)', t(d, s), t(d, needle))
    : d === 'mysql2' ? tpl('LOCATE($1, $0)', t(d, s), t(d, needle)) : tpl('INSTR($0, $1)', t(d, s), t(d, needle))),
  REPT: text('REPT', ['text', 'number'], 'string', (d, [s, n]) => repeatCapped(d, s, f(n)), 2, 2, true),
  IF: {
    min: 2, max: 3,
    type: (a, at) => { check('IF', ['bool'])(a, at); return unify(a.slice(1).map((x) => x.type)); },
    sql: (d, [c, a, b]) => {
      const type = unify([a, b].filter(Boolean).map((x) => x.type));
      return ifThenElse(asCondition(c), castTo(d, a, type), b ? castTo(d, b, type) : new Fragment('NULL', []));
    },
  },
  SWITCH: {
    min: 3, max: 255,
    type: (a) => unify(switchResults(a).map((x) => x.type)),
    sql: (d, a) => {
      const type = unify(switchResults(a).map((x) => x.type));
      const [subject, ...rest] = a;
      const cases: Fragment[] = [];
      for (let i = 0; i + 1 < rest.length; i += 2) {
        cases.push(tpl('WHEN $0 = $1 THEN $2', castTo(d, subject, unify([subject.type, rest[i].type])), castTo(d, rest[i], unify([subject.type, rest[i].type])), castTo(d, rest[i + 1], type)));
      }
      const fallback = rest.length % 2 === 1 ? castTo(d, rest[rest.length - 1], type) : new Fragment('NULL', []);
      return new Fragment(`CASE ${cases.map((c) => c.sql).join(' ')} ELSE (${fallback.sql}) END`, [...cases.flatMap((c) => c.bindings), ...fallback.bindings]);
    },
  },
  // As NocoDB: a blank condition is false in AND and OR.
  AND: { min: 1, max: 255, type: (a, at) => { check('AND', [], 'bool')(a, at); return 'boolean'; }, sql: (_d, a) => joined(a.map(definite), ' AND ') },
  OR: { min: 1, max: 255, type: (a, at) => { check('OR', [], 'bool')(a, at); return 'boolean'; }, sql: (_d, a) => joined(a.map(definite), ' OR ') },
  NOT: { min: 1, max: 1, type: (a, at) => { check('NOT', ['bool'])(a, at); return 'boolean'; }, sql: (_d, [x]) => tpl('NOT $0', asCondition(x)) },
  BLANK: { min: 0, max: 0, type: () => 'null', sql: () => new Fragment('NULL', []) },
  ISBLANK: {
    min: 1, max: 1, type: () => 'boolean',
    sql: (_d, [x]) => (x.type === 'string' ? tpl(`$0 IS NULL OR $0 = ''`, x.sql) : x.type === 'null' ? new Fragment('1 = 1', []) : tpl('$0 IS NULL', x.sql)),
  },
  DAY: datePart('DAY'), MONTH: datePart('MONTH'), YEAR: datePart('YEAR'),
  HOUR: datePart('HOUR'), MINUTE: datePart('MINUTE'), SECOND: datePart('SECOND'),
  ...dateFunctions,
  ...libraryFunctions,
};

function substr(d: Dialect, s: Fragment, start: Fragment, count?: Fragment): Fragment {
  const [from, n] = [intArg(d, start), count && intArg(d, greatest0(d, count))];
  if (d === 'pg') return n ? tpl('SUBSTRING($0 FROM $1 FOR $2)', s, from, n) : tpl('SUBSTRING($0 FROM $1)', s, from);
  if (d === 'mysql2') return n ? tpl('SUBSTRING($0, $1, $2)', s, from, n) : tpl('SUBSTRING($0, $1)', s, from);
  return n ? tpl('SUBSTR($0, $1, $2)', s, from, n) : tpl('SUBSTR($0, $1)', s, from);
}

/** SWITCH(subject, pattern1, result1, …, default?): the result arguments. */
function switchResults(a: Compiled[]): Compiled[] {
  const rest = a.slice(1);
  const out = rest.filter((_, i) => i % 2 === 1);
  if (rest.length % 2 === 1) out.push(rest[rest.length - 1]);
  return out;
}

