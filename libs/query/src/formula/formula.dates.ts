import type { Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import { formulaError } from './formula.error';
import { inRange } from './formula.safe';
import { asDatetime, tpl, type Compiled, type FormulaFunction } from './formula.sql';

/** Units of DATEADD and DATETIME_DIFF (NocoDB's names and abbreviations). */
const UNITS: Record<string, 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'> = {
  s: 'second', second: 'second', seconds: 'second', m: 'minute', minute: 'minute', minutes: 'minute',
  h: 'hour', hour: 'hour', hours: 'hour', d: 'day', day: 'day', days: 'day', w: 'week', week: 'week', weeks: 'week',
  M: 'month', month: 'month', months: 'month', y: 'year', year: 'year', years: 'year',
};
const SECONDS = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 } as const;

function unitOf(fn: string, arg: Compiled | undefined, pos: number, fallback?: string) {
  const raw = arg ? arg.literal : fallback;
  if (typeof raw !== 'string') throw formulaError(`${fn}: the unit must be a text literal such as "days"`, pos);
  const unit = UNITS[raw] ?? UNITS[raw.toLowerCase()];
  if (!unit) throw formulaError(`${fn}: unknown unit "${raw}" (seconds, minutes, hours, days, weeks, months, years)`, pos);
  return unit;
}

const dateArg = (fn: string, a: Compiled, pos: number) => {
  if (!['date', 'datetime', 'null'].includes(a.type)) throw formulaError(`${fn}: argument must be a date, not ${a.type}`, pos);
};

/**
 * The most DATEADD adds, per unit: 4,000 years. Further is blank on every
 * dialect (PostgreSQL fails the statement on an interval or timestamp out of
 * range; MySQL and SQLite answer NULL past year 9999).
 */
const MAX_AMOUNT: Record<string, string> = {
  second: '1.26e11', minute: '2.1e9', hour: '3.5e7', day: '1.46e6', week: '2.08e5', month: '48000', year: '4000',
};

function dateAdd(d: Dialect, x: Compiled, count: Fragment, unit: string): Fragment {
  const dayLevel = ['day', 'week', 'month', 'year'].includes(unit);
  const n = inRange(d, d === 'pg' ? tpl('($0)::float8', count) : count, MAX_AMOUNT[unit]);
  const amount = unit === 'week' ? tpl('$0 * 7', n) : n;
  const u = unit === 'week' ? 'day' : unit;
  if (d === 'pg') {
    const sum = tpl(`$0 + $1 * INTERVAL '1 ${u}'`, asDatetime(d, x), amount);
    return x.type === 'date' && dayLevel ? tpl('($0)::date', sum) : sum;
  }
  if (d === 'mysql2') return tpl(`DATE_ADD($0, INTERVAL $1 ${u.toUpperCase()})`, x.sql, amount);
  const fn = x.type === 'date' && dayLevel ? 'date' : 'datetime';
  return tpl(`${fn}($0, CAST($1 AS TEXT) || ' ${u}s')`, x.sql, amount);
}

function secondsBetween(d: Dialect, a: Fragment, b: Fragment): Fragment {
  if (d === 'pg') return tpl('EXTRACT(EPOCH FROM ($0 - $1))', a, b);
  if (d === 'mysql2') return tpl('TIMESTAMPDIFF(SECOND, $1, $0)', a, b);
  return tpl('CAST(ROUND((julianday($0) - julianday($1)) * 86400) AS INTEGER)', a, b);
}

function monthsBetween(d: Dialect, a: Fragment, b: Fragment): Fragment {
  if (d === 'pg') return tpl('(EXTRACT(YEAR FROM age($0, $1)) * 12 + EXTRACT(MONTH FROM age($0, $1)))', a, b);
  if (d === 'mysql2') return tpl('TIMESTAMPDIFF(MONTH, $1, $0)', a, b);
  const ym = (x: string) => `(CAST(strftime('%Y', ${x}) AS INTEGER) * 12 + CAST(strftime('%m', ${x}) AS INTEGER))`;
  const rest = (x: string) => `strftime('%d %H:%M:%S', ${x})`;
  return tpl(`(${ym('$0')} - ${ym('$1')} - CASE WHEN $0 >= $1 AND ${rest('$0')} < ${rest('$1')} THEN 1 WHEN $0 < $1 AND ${rest('$0')} > ${rest('$1')} THEN -1 ELSE 0 END)`, a, b);
}

function dateDiff(d: Dialect, a: Compiled, b: Compiled, unit: string): Fragment {
  const [x, y] = [asDatetime(d, a), asDatetime(d, b)];
  if (unit === 'month' || unit === 'year') {
    const months = monthsBetween(d, x, y);
    if (unit === 'month') return d === 'pg' ? tpl('($0)::float8', months) : months;
    return tpl(d === 'pg' ? 'TRUNC($0 / 12)::float8' : d === 'mysql2' ? 'TRUNCATE($0 / 12, 0)' : 'CAST($0 / 12 AS INTEGER)', months);
  }
  const secs = secondsBetween(d, x, y);
  const per = SECONDS[unit as keyof typeof SECONDS];
  if (d === 'pg') return tpl(`TRUNC($0 / ${per})::float8`, secs);
  if (d === 'mysql2') return tpl(`TRUNCATE($0 / ${per}, 0)`, secs);
  return tpl(`CAST($0 / ${per} AS INTEGER)`, secs);
}

/** Date functions (UTC): NOW, TODAY, DATEADD, DATETIME_DIFF, WEEKDAY. */
export const dateFunctions: Record<string, FormulaFunction> = {
  NOW: {
    min: 0, max: 0, type: () => 'datetime',
    sql: (d) => new Fragment(d === 'pg' ? `(now() AT TIME ZONE 'UTC')` : d === 'mysql2' ? 'UTC_TIMESTAMP()' : `datetime('now')`, []),
  },
  TODAY: {
    min: 0, max: 0, type: () => 'date',
    sql: (d) => new Fragment(d === 'pg' ? `(now() AT TIME ZONE 'UTC')::date` : d === 'mysql2' ? 'UTC_DATE()' : `date('now')`, []),
  },
  DATEADD: {
    min: 3, max: 3,
    type: (a, at) => {
      dateArg('DATEADD', a[0], at(0));
      if (!['number', 'null'].includes(a[1].type)) throw formulaError(`DATEADD: argument 2 must be a number, not ${a[1].type}`, at(1));
      const unit = unitOf('DATEADD', a[2], at(2));
      return a[0].type === 'date' && ['day', 'week', 'month', 'year'].includes(unit) ? 'date' : 'datetime';
    },
    sql: (d, [x, n, u]) => dateAdd(d, x, n.sql, unitOf('DATEADD', u, 0)),
  },
  DATETIME_DIFF: {
    min: 2, max: 3,
    type: (a, at) => {
      dateArg('DATETIME_DIFF', a[0], at(0));
      dateArg('DATETIME_DIFF', a[1], at(1));
      unitOf('DATETIME_DIFF', a[2], at(2), 'seconds');
      return 'number';
    },
    sql: (d, [a, b, u]) => dateDiff(d, a, b, unitOf('DATETIME_DIFF', u, 0, 'seconds')),
  },
  WEEKDAY: {
    min: 1, max: 1,
    type: (a, at) => { dateArg('WEEKDAY', a[0], at(0)); return 'number'; },
    sql: (d, [x]) => {
      if (d === 'pg') return tpl('(EXTRACT(ISODOW FROM $0) - 1)::float8', asDatetime(d, x));
      if (d === 'mysql2') return tpl('WEEKDAY($0)', x.sql);
      return tpl(`((CAST(strftime('%w', $0) AS INTEGER) + 6) % 7)`, x.sql);
    },
  },
};
