import type { FilterCondition } from '../filter/filter.types';
import { hasTime } from '../filter/date-value';
import { dateSubOp, withinSubOp } from '../filter/operators';
import { astDate, astDays, astList, invalidAst } from './ast-guard';
import type { ConditionContext } from './compile-context';
import { blank, notBlank, notOrNull } from './null-checks';
import { FALSE, Fragment, TRUE, comparator, sql, valueList } from './sql-fragment';
import { nextDay, subOpTarget, withinRange, zonedDayStart, zonedNow } from './date-range';

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * Date and DateTime conditions. Comparisons are by UTC day (DateTime `eq`
 * matches the whole day); a DateTime compared with a value that carries a time
 * (exactDate `2024-01-31 10:00`) is compared to the second instead, except by eq/neq.
 */
export function compileDateCondition(cond: FilterCondition, ctx: ConditionContext): Fragment | null {
  switch (cond.op) {
    case 'eq':
    case 'neq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compareDate(cond, ctx);
    case 'isWithin':
      return within(cond, ctx);
    case 'in':
    case 'notin':
      return dateIn(cond, ctx);
    case 'btw':
    case 'nbtw':
      return dateBetween(cond, ctx);
    default:
      return null;
  }
}

function compareDate(cond: FilterCondition, ctx: ConditionContext): Fragment {
  if (!cond.subOp && (cond.value === null || cond.value === undefined)) {
    if (cond.op === 'eq') return blank(ctx);
    if (cond.op === 'neq') return notBlank(ctx);
    throw invalidAst(`'${cond.op}' needs a value`);
  }
  const target = dateTarget(cond, ctx);
  if (zoned(cond, ctx) && !hasTime(target)) return zonedCompare(cond, ctx, target.slice(0, 10));
  const day = sql`${dayExpr(ctx)} = ${target.slice(0, 10)}`;
  if (cond.op === 'eq') return day;
  if (cond.op === 'neq') return notOrNull(ctx, day);
  const cmp = comparator(COMPARATORS[cond.op as keyof typeof COMPARATORS]);
  if (hasTime(target) && ctx.kind === 'datetime') {
    return sql`${ctx.d.timestampOf(ctx.col)} ${cmp} ${ctx.d.timestampValue(target)}`;
  }
  return sql`${dayExpr(ctx)} ${cmp} ${target.slice(0, 10)}`;
}

function dateTarget(cond: FilterCondition, ctx: ConditionContext): string {
  const subOp = cond.subOp === undefined ? 'exactDate' : dateSubOp(cond.subOp);
  if (!subOp) throw invalidAst(`invalid date sub-operator for '${cond.op}'`);
  if (subOp === 'exactDate') return astDate(cond.value);
  const days = subOp === 'daysAgo' || subOp === 'daysFromNow' ? astDays(cond.value) : 0;
  return subOpTarget(subOp, days, zoned(cond, ctx) ? zonedNow(ctx.now, cond.timeZone!) : ctx.now);
}

/** A DateTime compared by day in the caller's time zone (`whereTz`). */
const zoned = (cond: FilterCondition, ctx: ConditionContext) => ctx.kind === 'datetime' && !!cond.timeZone;

/**
 * The day's window in the caller's zone as UTC instants: `eq` is
 * [start, next start), `lt` before the start, `gte` from it, `gt` from the
 * next start, `lte` before it; `neq` outside (or blank).
 */
function zonedCompare(cond: FilterCondition, ctx: ConditionContext, day: string): Fragment {
  const tz = cond.timeZone!;
  const ts = ctx.d.timestampOf(ctx.col);
  const start = ctx.d.timestampValue(zonedDayStart(day, tz));
  const end = ctx.d.timestampValue(zonedDayStart(nextDay(day), tz));
  const inDay = sql`(${ts} >= ${start} AND ${ts} < ${end})`;
  switch (cond.op) {
    case 'eq': return inDay;
    case 'neq': return notOrNull(ctx, inDay);
    case 'lt': return sql`${ts} < ${start}`;
    case 'gte': return sql`${ts} >= ${start}`;
    case 'gt': return sql`${ts} >= ${end}`;
    default: return sql`${ts} < ${end}`;
  }
}

function within(cond: FilterCondition, ctx: ConditionContext): Fragment {
  const subOp = cond.subOp === undefined ? undefined : withinSubOp(cond.subOp);
  if (!subOp) throw invalidAst("'isWithin' needs a sub-operator");
  const days = subOp === 'pastNumberOfDays' || subOp === 'nextNumberOfDays' ? astDays(cond.value) : 0;
  if (zoned(cond, ctx)) {
    const [from, to] = withinRange(subOp, days, zonedNow(ctx.now, cond.timeZone!));
    const ts = ctx.d.timestampOf(ctx.col);
    return sql`(${ts} >= ${ctx.d.timestampValue(zonedDayStart(from, cond.timeZone!))} AND ${ts} < ${ctx.d.timestampValue(zonedDayStart(nextDay(to), cond.timeZone!))})`;
  }
  const [from, to] = withinRange(subOp, days, ctx.now);
  return sql`${dayExpr(ctx)} BETWEEN ${from} AND ${to}`;
}

function dateIn(cond: FilterCondition, ctx: ConditionContext): Fragment {
  const values = astList(cond.value).map((v) => astDate(v).slice(0, 10));
  if (!values.length) return cond.op === 'in' ? FALSE : TRUE;
  const list = sql`${dayExpr(ctx)} IN (${valueList(values)})`;
  return cond.op === 'in' ? list : notOrNull(ctx, list);
}

function dateBetween(cond: FilterCondition, ctx: ConditionContext): Fragment {
  const [low, high] = astList(cond.value).map(astDate);
  if (low === undefined || high === undefined) throw invalidAst(`'${cond.op}' needs two values`);
  const useTime = ctx.kind === 'datetime' && (hasTime(low) || hasTime(high));
  const expr = useTime ? ctx.d.timestampOf(ctx.col) : dayExpr(ctx);
  const bound = (v: string, end: boolean): string =>
    useTime ? ctx.d.timestampValue(hasTime(v) ? v : `${v} ${end ? '23:59:59' : '00:00:00'}`) : v.slice(0, 10);
  const range = sql`${expr} BETWEEN ${bound(low, false)} AND ${bound(high, true)}`;
  return cond.op === 'btw' ? range : sql`NOT (${range})`;
}

function dayExpr(ctx: ConditionContext): Fragment {
  return ctx.d.dayOf(ctx.col, ctx.column, ctx.kind === 'datetime');
}
