import type { Dialect } from '../column/column.types';
import { Fragment } from '../compile/sql-fragment';
import { FORMULA_LIMITS, type BinaryOp, type FormulaNode, type FormulaType } from './formula.ast';
import { formulaError } from './formula.error';
import { FUNCTIONS } from './formula.functions';
import { arithmetic as guarded } from './formula.safe';
import { asCondition, asDatetime, dateLiteral, formatDate, tpl, type Compiled } from './formula.sql';

/** What the compiler needs: the dialect and how to turn `{Field}` into SQL. */
export interface FormulaContext {
  dialect: Dialect;
  /** Resolves a field reference (title or id); throws a formula error when unknown. */
  resolve(name: string, pos: number): Compiled;
  /** The record's own values: RECORD_ID() (its primary key as text) and LAST_MODIFIED_TIME(). */
  system?(name: SystemFunction, pos: number): Compiled;
}

/** Functions of the record itself (the context answers them). */
export const SYSTEM_FUNCTIONS = ['RECORD_ID', 'LAST_MODIFIED_TIME'] as const;
type SystemFunction = (typeof SYSTEM_FUNCTIONS)[number];

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
const DATE_ARG_FUNCTIONS = new Set(['DATEADD', 'DATETIME_DIFF', 'WEEKDAY', 'DATESTR', 'DAY', 'MONTH', 'YEAR', 'HOUR', 'MINUTE', 'SECOND']);

/**
 * Whether a date literal names a real day and time in years 1-9999 (the
 * databases refuse '2024-13-45' on every read, or read it as blank).
 */
function isRealDate(text: string): boolean {
  const [y, m, d, hh = 0, mm = 0, ss = 0] = text.split(/[-T :]/).map(Number);
  const days = new Date(Date.UTC(2000, m, 0)).getUTCDate() - (m === 2 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) ? 1 : 0);
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= days && hh < 24 && mm < 60 && ss < 60;
}

/** A text literal that spells a date becomes a date value (for date functions and comparisons). */
function dateFromText(d: Dialect, c: Compiled, pos: number): Compiled {
  if (c.type !== 'string' || typeof c.literal !== 'string') return c;
  const isDate = DATE_TEXT.test(c.literal);
  if (!isDate && !DATETIME_TEXT.test(c.literal)) return c;
  if (!isRealDate(c.literal)) throw formulaError(`invalid date "${c.literal}"`, pos);
  return isDate ? { sql: dateLiteral(d, c.literal, false), type: 'date' } : { sql: dateLiteral(d, c.literal.replace('T', ' '), true), type: 'datetime' };
}

function literal(d: Dialect, node: FormulaNode & { kind: 'number' | 'string' | 'boolean' }): Compiled {
  if (node.kind === 'number' && !Number.isFinite(node.value)) throw formulaError('number too large', node.pos);
  // pg cannot type a bare parameter in `? + ?`: literals carry their type.
  const cast = d === 'pg' ? { number: '(?)::float8', string: '(?)::text', boolean: '(?)::boolean' }[node.kind] : '?';
  const value = node.kind === 'boolean' && d !== 'pg' ? (node.value ? 1 : 0) : node.value;
  return { sql: new Fragment(cast, [value]), type: node.kind, literal: node.value };
}

function arithmetic(d: Dialect, op: '+' | '-' | '*' | '/', l: Compiled, r: Compiled, pos: number): Compiled {
  for (const side of [l, r]) {
    if (side.type !== 'number' && side.type !== 'null') {
      const hint = op === '+' && side.type === 'string' ? ' (join text with & or CONCAT)' : side.type === 'date' || side.type === 'datetime' ? ' (use DATEADD or DATETIME_DIFF)' : '';
      throw formulaError(`'${op}' needs numbers, not ${side.type}${hint}`, pos);
    }
  }
  // pg: float8 operands (BLANK() is an untyped NULL).
  const [a, b] = d === 'pg' ? [tpl('($0)::float8', l.sql), tpl('($0)::float8', r.sql)] : [l.sql, r.sql];
  return { sql: guarded(d, op, a, b), type: 'number' };
}

function comparison(d: Dialect, op: string, left: Compiled, right: Compiled, pos: number): Compiled {
  const sqlOp = op === '!=' ? '<>' : op;
  if (left.type === 'null' || right.type === 'null') {
    if (op !== '=' && op !== '!=') throw formulaError(`'${op}' cannot compare with BLANK()`, pos);
    const other = left.type === 'null' ? right : left;
    return { sql: tpl(op === '=' ? '$0 IS NULL' : '$0 IS NOT NULL', other.sql), type: 'boolean' };
  }
  let [l, r] = [left, right];
  const isDate = (c: Compiled) => c.type === 'date' || c.type === 'datetime';
  if (isDate(l) && r.type === 'string') r = dateFromText(d, r, pos);
  if (isDate(r) && l.type === 'string') l = dateFromText(d, l, pos);
  if (isDate(l) && isDate(r)) {
    const sql = l.type === r.type ? tpl(`$0 ${sqlOp} $1`, l.sql, r.sql) : tpl(`$0 ${sqlOp} $1`, asDatetime(d, l), asDatetime(d, r));
    return { sql, type: 'boolean' };
  }
  if (l.type !== r.type) throw formulaError(`'${op}' compares ${l.type} with ${r.type}`, pos);
  return { sql: tpl(`$0 ${sqlOp} $1`, l.sql, r.sql), type: 'boolean' };
}

function binary(ctx: FormulaContext, op: BinaryOp, l: Compiled, r: Compiled, pos: number): Compiled {
  const d = ctx.dialect;
  switch (op) {
    case '+': case '-': case '*': case '/': return arithmetic(d, op, l, r, pos);
    case '&':
      FUNCTIONS.CONCAT.type([l, r], () => pos);
      return { sql: FUNCTIONS.CONCAT.sql(d, [l, r]), type: 'string', capped: true };
    case '&&': return { sql: tpl('$0 AND $1', asCondition(l), asCondition(r)), type: 'boolean' };
    case '||': return { sql: tpl('$0 OR $1', asCondition(l), asCondition(r)), type: 'boolean' };
    default: return comparison(d, op, l, r, pos);
  }
}

function call(ctx: FormulaContext, node: FormulaNode & { kind: 'call' }, depth: number): Compiled {
  if ((SYSTEM_FUNCTIONS as readonly string[]).includes(node.name)) {
    if (node.args.length) throw formulaError(`${node.name} takes 0 arguments, not ${node.args.length}`, node.pos);
    if (!ctx.system) throw formulaError(`${node.name} needs a table`, node.pos);
    return ctx.system(node.name as SystemFunction, node.pos);
  }
  const fn = FUNCTIONS[node.name];
  if (!fn) throw formulaError(`unknown function ${node.name}`, node.pos);
  if (node.args.length < fn.min || node.args.length > fn.max) {
    const expected = fn.min === fn.max ? `${fn.min}` : fn.max >= 255 ? `at least ${fn.min}` : `${fn.min} to ${fn.max}`;
    throw formulaError(`${node.name} takes ${expected} argument${fn.max === 1 ? '' : 's'}, not ${node.args.length}`, node.pos);
  }
  let args = node.args.map((a) => compileNode(ctx, a, depth + 1));
  if (DATE_ARG_FUNCTIONS.has(node.name)) {
    const dateArgs = node.name === 'DATETIME_DIFF' ? [0, 1] : [0];
    args = args.map((a, i) => (dateArgs.includes(i) ? dateFromText(ctx.dialect, a, node.args[i].pos) : a));
  }
  const at = (i: number) => node.args[i]?.pos ?? node.pos;
  const type = fn.type(args, at);
  fn.check?.(args, at);
  const unsupported = fn.unsupportedOn?.(ctx.dialect);
  if (unsupported) throw formulaError(unsupported, node.pos);
  return { sql: fn.sql(ctx.dialect, args), type, capped: fn.capped };
}

/**
 * Compiles one node (type-checking as it goes). Some guards repeat an
 * operand's SQL, so the compiled size is bounded as it grows.
 */
export function compileNode(ctx: FormulaContext, node: FormulaNode, depth = 0): Compiled {
  const compiled = compileUnchecked(ctx, node, depth);
  if (compiled.sql.sql.length > FORMULA_LIMITS.maxSqlLength || compiled.sql.bindings.length > FORMULA_LIMITS.maxBindings) {
    throw formulaError('too complex once compiled (simplify nested functions)', node.pos);
  }
  return compiled;
}

function compileUnchecked(ctx: FormulaContext, node: FormulaNode, depth: number): Compiled {
  switch (node.kind) {
    case 'number': case 'string': case 'boolean': return literal(ctx.dialect, node);
    case 'field': return ctx.resolve(node.name, node.pos);
    case 'call': return call(ctx, node, depth);
    case 'unary': {
      const arg = compileNode(ctx, node.arg, depth + 1);
      if (node.op === '!') return { sql: tpl('NOT $0', asCondition(arg)), type: 'boolean' };
      if (arg.type !== 'number' && arg.type !== 'null') throw formulaError(`'${node.op}' needs a number, not ${arg.type}`, node.pos);
      // pg: a float8 to negate (BLANK() is an untyped NULL, and "- unknown" is ambiguous).
      return node.op === '-' ? { sql: tpl(ctx.dialect === 'pg' ? '-(($0)::float8)' : '-$0', arg.sql), type: 'number' } : arg;
    }
    case 'binary': return binary(ctx, node.op, compileNode(ctx, node.left, depth + 1), compileNode(ctx, node.right, depth + 1), node.pos);
  }
}

/**
 * The expression as a SELECT value: dates as `YYYY-MM-DD`, datetimes as
 * `YYYY-MM-DD HH:MM:SS` (UTC), booleans as 1/0/NULL, numbers as doubles.
 */
export function selectValue(d: Dialect, c: Compiled): Fragment {
  switch (c.type) {
    case 'date': return formatDate(d, c.sql, false);
    case 'datetime': return formatDate(d, c.sql, true);
    case 'boolean': return tpl('CASE WHEN $0 THEN 1 WHEN NOT $0 THEN 0 END', c.sql);
    case 'number': return d === 'pg' ? tpl('($0)::float8', c.sql) : c.sql;
    default: return c.sql;
  }
}

/** Turns a selected value into its JSON form (drivers differ: 1/'1'/true, '2.5'/2.5). */
export function presentFormulaValue(type: FormulaType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean': return value === true || value === 1 || value === '1';
    case 'number': {
      // A non-finite number is blank (JSON has none); -0 reads as 0.
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n || 0 : null;
    }
    case 'datetime': return `${String(value)}+00:00`;
    case 'string': return typeof value === 'string' ? value : String(value);
    default: return value;
  }
}

