import { invalidValue } from './value-errors';
import type { CoercionColumn } from './scalar.coercers';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DAY = /^(\d{4})-(\d{2})-(\d{2})/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Parses `YYYY-MM-DD[ HH:mm[:ss]][Z|±hh:mm]` (or a Date / epoch ms) to a UTC instant; undefined when invalid. */
export function parseInstant(raw: unknown): Date | undefined {
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? new Date(raw) : undefined;
  if (typeof raw !== 'string') return undefined;
  const m = DATE_TIME.exec(raw.trim());
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7).map((v) => v ?? undefined) as string[];
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const date = new Date(ms);
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return new Date(ms - offsetMinutes(m[7]) * 60_000);
}

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const sign = digits[0] === '-' ? -1 : 1;
  return sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
}

/** `YYYY-MM-DD HH:mm:ss` of an instant in UTC. */
export function utcText(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** Date: stored as `YYYY-MM-DD` (a datetime's date part is accepted). */
export function toDate(column: CoercionColumn, raw: unknown): string {
  // Checked by calendar arithmetic only: bulk inserts coerce thousands of dates.
  const m = typeof raw === 'string' ? DAY.exec(raw.trim()) : null;
  const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (!m || date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    throw invalidValue(column.title, 'expected a date YYYY-MM-DD');
  }
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/**
 * {@link toDate} for one column: an exact `YYYY-MM-DD` naming a real day (year
 * 100 or later: `Date.UTC` maps 0-99 to 19xx, which toDate refuses) is checked
 * by arithmetic and stored as sent; anything else takes toDate.
 */
export function dateCoercer(column: CoercionColumn): (raw: unknown) => string {
  return (raw) => (typeof raw === 'string' && isPlainDay(raw) ? raw : toDate(column, raw));
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isPlainDay(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  let y = 0;
  let m = 0;
  let d = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const digit = s.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    if (i < 4) y = y * 10 + digit;
    else if (i < 7) m = m * 10 + digit;
    else d = d * 10 + digit;
  }
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = m === 2 && (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));
  return d <= DAYS_IN_MONTH[m - 1] + (leap ? 1 : 0);
}

/**
 * DateTime: stored in UTC as `YYYY-MM-DD HH:mm:ss`, with `+00:00` for zone-aware
 * columns (a zone-less pg `timestamp` would otherwise keep a local offset).
 */
export function toDateTime(column: CoercionColumn, raw: unknown): string {
  const instant = parseInstant(raw);
  if (!instant) throw invalidValue(column.title, 'expected a date-time YYYY-MM-DD HH:mm:ss');
  const text = utcText(instant);
  return /tz|with time zone/i.test(column.dt ?? '') ? `${text}+00:00` : text;
}

/** Time: `HH:mm[:ss]`, stored as `HH:mm:ss`. */
export function toTime(column: CoercionColumn, raw: unknown): string {
  const m = typeof raw === 'string' ? TIME.exec(raw.trim()) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) throw invalidValue(column.title, 'expected a time HH:mm:ss');
  return `${pad(Number(m[1]))}:${m[2]}:${pad(Number(m[3] ?? 0))}`;
}
