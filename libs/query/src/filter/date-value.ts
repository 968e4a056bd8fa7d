const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Validates a date or date-time and normalises it: `YYYY-MM-DD` for a date,
 * `YYYY-MM-DD HH:mm:ss` in UTC for a date-time (an offset is applied, none means
 * UTC). Undefined for anything else, including impossible dates (2024-02-30).
 */
export function parseDateValue(text: string): string | undefined {
  const value = text.trim();
  const date = DATE_ONLY.exec(value);
  if (date) {
    const [y, m, d] = date.slice(1).map(Number);
    return validParts(y, m, d, 0, 0, 0) ? formatDay(utcDate(y, m, d, 0, 0, 0)) : undefined;
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) return undefined;
  const [y, m, d, hh, mm] = dt.slice(1, 6).map(Number);
  const ss = dt[6] ? Number(dt[6]) : 0;
  if (!validParts(y, m, d, hh, mm, ss)) return undefined;
  const offsetMinutes = parseOffset(dt[7]);
  const utc = new Date(utcDate(y, m, d, hh, mm, ss).getTime() - offsetMinutes * 60_000);
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return undefined;
  return formatTimestamp(utc);
}

function validParts(y: number, m: number, d: number, hh: number, mm: number, ss: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || hh > 23 || mm > 59 || ss > 59) return false;
  return utcDate(y, m, d, 0, 0, 0).getUTCDate() === d;
}

/** Date.UTC without its two-digit-year quirk (years 1-99 stay themselves). */
function utcDate(y: number, m: number, d: number, hh: number, mm: number, ss: number): Date {
  const date = new Date(Date.UTC(2000, m - 1, d, hh, mm, ss));
  date.setUTCFullYear(y, m - 1, d);
  return date;
}

function parseOffset(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
}

/** True when a normalised date value carries a time. */
export function hasTime(value: string): boolean {
  return value.length > 10;
}

/** `YYYY-MM-DD` of a Date in UTC. */
export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:mm:ss` of a Date in UTC. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
