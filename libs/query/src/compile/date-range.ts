import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import type { DateSubOp, WithinSubOp } from '../filter/filter.types';
import { formatDay } from '../filter/date-value';

dayjs.extend(utc);
dayjs.extend(timezone);

type Unit = 'day' | 'week' | 'month' | 'year';
const SHIFTS: Record<Exclude<DateSubOp, 'daysAgo' | 'daysFromNow' | 'exactDate'>, [number, Unit]> = {
  today: [0, 'day'], tomorrow: [1, 'day'], yesterday: [-1, 'day'], oneWeekAgo: [-1, 'week'],
  oneWeekFromNow: [1, 'week'], oneMonthAgo: [-1, 'month'], oneMonthFromNow: [1, 'month'],
};
const WITHIN: Record<Exclude<WithinSubOp, 'pastNumberOfDays' | 'nextNumberOfDays'>, [number, Unit]> = {
  pastWeek: [-1, 'week'], pastMonth: [-1, 'month'], pastYear: [-1, 'year'],
  nextWeek: [1, 'week'], nextMonth: [1, 'month'], nextYear: [1, 'year'],
};

function shift(now: Date, amount: number, unit: Unit): string {
  return formatDay(dayjs.utc(now).add(amount, unit).toDate());
}

/**
 * The day (`YYYY-MM-DD`) a relative sub-operator names, counted in UTC days from
 * `now`; `days` is the count of daysAgo / daysFromNow.
 */
export function subOpTarget(subOp: Exclude<DateSubOp, 'exactDate'>, days: number, now: Date): string {
  if (subOp === 'daysAgo') return shift(now, -days, 'day');
  if (subOp === 'daysFromNow') return shift(now, days, 'day');
  const [amount, unit] = SHIFTS[subOp];
  return shift(now, amount, unit);
}

/** `now` moved so that its UTC day is the day it is in `timeZone` (relative sub-operators count from that day). */
export function zonedNow(now: Date, timeZone: string): Date {
  const local = dayjs(now).tz(timeZone);
  return new Date(Date.UTC(local.year(), local.month(), local.date(), 12));
}

/** The UTC instant (`YYYY-MM-DD HH:mm:ss`) a day (`YYYY-MM-DD`) starts at in `timeZone`. */
export function zonedDayStart(day: string, timeZone: string): string {
  return dayjs.tz(`${day} 00:00:00`, timeZone).utc().format('YYYY-MM-DD HH:mm:ss');
}

/** The day after `day` (`YYYY-MM-DD`). */
export function nextDay(day: string): string {
  return formatDay(dayjs.utc(`${day}T00:00:00Z`).add(1, 'day').toDate());
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The inclusive day range of an isWithin sub-operator: [past, today] or [today, future]. */
export function withinRange(subOp: WithinSubOp, days: number, now: Date): [string, string] {
  const today = formatDay(now);
  if (subOp === 'pastNumberOfDays') return [shift(now, -days, 'day'), today];
  if (subOp === 'nextNumberOfDays') return [today, shift(now, days, 'day')];
  const [amount, unit] = WITHIN[subOp];
  const other = shift(now, amount, unit);
  return amount < 0 ? [other, today] : [today, other];
}
