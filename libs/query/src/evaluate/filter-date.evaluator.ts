import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import type { ColumnKind } from '../column/column-kind';
import type { FilterCondition } from '../filter/filter.types';

dayjs.extend(utc);

type Unit = 'day' | 'week' | 'month' | 'year';
const SHIFTS: Record<string, [number, Unit]> = {
  today: [0, 'day'], tomorrow: [1, 'day'], yesterday: [-1, 'day'], oneWeekAgo: [-1, 'week'],
  oneWeekFromNow: [1, 'week'], oneMonthAgo: [-1, 'month'], oneMonthFromNow: [1, 'month'],
  pastWeek: [-1, 'week'], pastMonth: [-1, 'month'], pastYear: [-1, 'year'],
  nextWeek: [1, 'week'], nextMonth: [1, 'month'], nextYear: [1, 'year'],
};

const day = (d: dayjs.Dayjs): string => d.format('YYYY-MM-DD');
const hasTime = (v: string): boolean => /\d{2}:\d{2}/.test(v);

/** The UTC day (or second, when `precise`) a row value stands for; null when blank or unparsable. */
function valueOf(value: unknown, kind: ColumnKind, precise: boolean): string | null {
  if (value === null || value === undefined || value === '') return null;
  const raw = String(value);
  if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const parsed = dayjs.utc(raw);
  if (!parsed.isValid()) return null;
  return precise ? parsed.format('YYYY-MM-DD HH:mm:ss') : day(parsed);
}

function target(cond: FilterCondition, now: Date): string {
  const sub = cond.subOp ?? 'exactDate';
  if (sub === 'exactDate') return String(cond.value);
  const base = dayjs.utc(now);
  if (sub === 'daysAgo') return day(base.subtract(Number(cond.value), 'day'));
  if (sub === 'daysFromNow') return day(base.add(Number(cond.value), 'day'));
  const [amount, unit] = SHIFTS[sub] ?? [0, 'day'];
  return day(base.add(amount, unit));
}

function withinRange(cond: FilterCondition, now: Date): [string, string] {
  const base = dayjs.utc(now);
  const today = day(base);
  if (cond.subOp === 'pastNumberOfDays') return [day(base.subtract(Number(cond.value), 'day')), today];
  if (cond.subOp === 'nextNumberOfDays') return [today, day(base.add(Number(cond.value), 'day'))];
  const [amount, unit] = SHIFTS[cond.subOp ?? ''] ?? [0, 'day'];
  const other = day(base.add(amount, unit));
  return amount < 0 ? [other, today] : [today, other];
}

function compareDates(cond: FilterCondition, value: unknown, kind: ColumnKind, now: Date): boolean {
  if (!cond.subOp && (cond.value === null || cond.value === undefined)) {
    const blank = valueOf(value, kind, false) === null;
    return cond.op === 'eq' ? blank : !blank;
  }
  const goal = target(cond, now);
  const precise = kind === 'datetime' && hasTime(goal) && cond.op !== 'eq' && cond.op !== 'neq';
  const have = valueOf(value, kind, precise);
  if (have === null) return cond.op === 'neq';
  const want = precise ? dayjs.utc(goal).format('YYYY-MM-DD HH:mm:ss') : goal.slice(0, 10);
  switch (cond.op) {
    case 'eq': return have === want;
    case 'neq': return have !== want;
    case 'gt': return have > want;
    case 'gte': return have >= want;
    case 'lt': return have < want;
    default: return have <= want;
  }
}

/** Date / DateTime conditions, compared by UTC day as the SQL compiler does. */
export function matchDate(cond: FilterCondition, value: unknown, kind: ColumnKind, now: Date): boolean {
  const list = (Array.isArray(cond.value) ? cond.value : [cond.value]).map(String);
  const have = valueOf(value, kind, false);
  switch (cond.op) {
    case 'isWithin': {
      const [from, to] = withinRange(cond, now);
      return have !== null && have >= from && have <= to;
    }
    case 'in': return have !== null && list.some((v) => v.slice(0, 10) === have);
    case 'notin': return have === null || !list.some((v) => v.slice(0, 10) === have);
    case 'btw': case 'nbtw': {
      const [low = '', high = ''] = list;
      const inside = have !== null && have >= low.slice(0, 10) && have <= high.slice(0, 10);
      return cond.op === 'btw' ? inside : have !== null && !inside;
    }
    default: return compareDates(cond, value, kind, now);
  }
}
