import type { FilterCondition, IsArgument, Scalar } from '../filter/filter.types';
import { isArgument } from '../filter/operators';
import { astList, invalidAst } from './ast-guard';
import type { ConditionContext } from './compile-context';
import { escapeLike } from './dialect.sql';
import { compileDateCondition } from './date.compiler';
import { blank, checked, empty, isCondition, notBlank, notChecked, notEmpty, notOrNull } from './null-checks';
import { FALSE, Fragment, TRUE, comparator, joinFragments, sql, valueList } from './sql-fragment';

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const DATE_HANDLED = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'isWithin', 'in', 'notin', 'btw', 'nbtw']);

/** SQL for one resolved condition; null when it adds no constraint. */
export function compileCondition(cond: FilterCondition, ctx: ConditionContext): Fragment | null {
  if ((ctx.kind === 'date' || ctx.kind === 'datetime') && DATE_HANDLED.has(cond.op)) {
    return compileDateCondition(cond, ctx);
  }
  switch (cond.op) {
    case 'eq':
      return equals(cond.value, ctx);
    case 'neq':
      return notEquals(cond.value, ctx);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return sql`${ctx.col} ${comparator(COMPARATORS[cond.op])} ${scalar(cond.value)}`;
    case 'like':
      return like(cond.value, ctx);
    case 'nlike':
      return cond.value === '' ? sql`${ctx.col} IS NULL` : notOrNull(ctx, like(cond.value, ctx));
    case 'is':
    case 'isnot':
      return isCondition(ctx, isArg(cond.value), cond.op === 'isnot');
    case 'in':
    case 'notin':
      return inList(cond, ctx);
    case 'btw':
      return sql`${ctx.col} BETWEEN ${pair(cond.value)[0]} AND ${pair(cond.value)[1]}`;
    case 'nbtw':
      return sql`${ctx.col} NOT BETWEEN ${pair(cond.value)[0]} AND ${pair(cond.value)[1]}`;
    case 'blank':
      return blank(ctx);
    case 'notblank':
      return notBlank(ctx);
    case 'empty':
      return empty(ctx);
    case 'notempty':
      return notEmpty(ctx);
    case 'null':
      return sql`${ctx.col} IS NULL`;
    case 'notnull':
      return sql`${ctx.col} IS NOT NULL`;
    case 'checked':
      return checked(ctx);
    case 'notchecked':
      return notChecked(ctx);
    default:
      return membership(cond, ctx);
  }
}

function equals(value: FilterCondition['value'], ctx: ConditionContext): Fragment {
  if (value === null || value === undefined) return blank(ctx);
  if (ctx.kind === 'checkbox') return value === true ? checked(ctx) : notChecked(ctx);
  if (ctx.kind === 'json') return sql`${ctx.d.textOf(ctx.col)} = ${String(scalar(value))}`;
  if (ctx.kind === 'text') return ctx.d.textEquals(ctx.col, String(scalar(value)));
  return sql`${ctx.col} = ${scalar(value)}`;
}

function notEquals(value: FilterCondition['value'], ctx: ConditionContext): Fragment {
  if (value === null || value === undefined) return notBlank(ctx);
  if (ctx.kind === 'checkbox') return value === true ? notChecked(ctx) : checked(ctx);
  return notOrNull(ctx, equals(value, ctx));
}

/** Case-insensitive contains: `%value%` unless the value has its own `%`; `_` and `!` are literal. */
function like(value: FilterCondition['value'], ctx: ConditionContext): Fragment {
  const text = String(scalar(value ?? ''));
  if (text === '') return sql`${ctx.col} IS NOT NULL`;
  const escaped = escapeLike(text, true);
  const pattern = text.includes('%') ? escaped : `%${escaped}%`;
  return ctx.d.ilike(ctx.col, pattern);
}

function inList(cond: FilterCondition, ctx: ConditionContext): Fragment {
  const values = astList(cond.value);
  if (!values.length) return cond.op === 'in' ? FALSE : TRUE;
  const list = sql`${ctx.col} IN (${valueList(values)})`;
  return cond.op === 'in' ? list : notOrNull(ctx, list);
}

/** anyof / allof / nanyof / nallof: option membership in comma-separated MultiSelect text. */
function membership(cond: FilterCondition, ctx: ConditionContext): Fragment | null {
  if (!['anyof', 'allof', 'nanyof', 'nallof'].includes(cond.op)) throw invalidAst(`unknown operator '${cond.op}'`);
  const items = astList(cond.value).map(String).filter((item) => item !== '');
  if (!items.length) return null;
  const wrapped = ctx.d.wrapCommas(ctx.col);
  const tests = items.map((item) => ctx.d.ilike(wrapped, `%,${escapeLike(item, false)},%`));
  const all = cond.op === 'allof' || cond.op === 'nallof';
  const combined = joinFragments(tests, all ? 'AND' : 'OR');
  return cond.op === 'anyof' || cond.op === 'allof' ? combined : notOrNull(ctx, combined);
}

function scalar(value: FilterCondition['value']): Scalar {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw invalidAst('a single value is expected');
}

function pair(value: FilterCondition['value']): [Scalar, Scalar] {
  const list = astList(value);
  if (list.length !== 2) throw invalidAst('two values are expected');
  return [list[0], list[1]];
}

function isArg(value: FilterCondition['value']): IsArgument {
  const arg = typeof value === 'string' ? isArgument(value) : undefined;
  if (!arg) throw invalidAst("invalid argument of 'is'");
  return arg;
}
