import { invalidValue } from './value-errors';

/** The column fields the coercers read. */
export interface CoercionColumn {
  title: string;
  uidt: string;
  dt?: string | null;
  dtxp?: string | number | null;
  dtxs?: string | number | null;
  meta?: Record<string, unknown> | null;
  colOptions?: { options?: { title: string }[] } & Record<string, unknown>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9()\-.\s]{3,30}$/;
const URL_LIKE = /^(https?:\/\/)?([\w-]+\.)+[\w-]{2,}(:\d+)?([/?#]\S*)?$/i;

/** Any primitive written as text; objects and arrays are refused. */
export function toText(column: CoercionColumn, raw: unknown): string {
  return textOf(column, raw, maxLengthOf(column));
}

function textOf(column: CoercionColumn, raw: unknown, max: number | undefined): string {
  if (typeof raw === 'string') return checkLength(column, raw, max);
  if (typeof raw === 'number' || typeof raw === 'boolean') return checkLength(column, String(raw), max);
  throw invalidValue(column.title, 'expected text');
}

/** The most characters a `varchar(n)` / `char(n)` column takes, or undefined. */
function maxLengthOf(column: CoercionColumn): number | undefined {
  const max = Number(column.dtxp);
  return /char/i.test(column.dt ?? '') && Number.isInteger(max) && max > 0 ? max : undefined;
}

function checkLength(column: CoercionColumn, text: string, max: number | undefined): string {
  if (max !== undefined && text.length > max) throw invalidValue(column.title, `longer than ${max} characters`);
  return text;
}

/** {@link toText} for one column, its length limit read once (value.coercer.ts compiles coercers per column). */
export function textCoercer(column: CoercionColumn): (raw: unknown) => string {
  const max = maxLengthOf(column);
  return (raw) => textOf(column, raw, max);
}

/** {@link toFormattedText} for one column. */
export function formattedTextCoercer(column: CoercionColumn): (raw: unknown) => string {
  const text = textCoercer(column);
  const pattern = patternOf(column);
  return (raw) => formatted(column, text(raw), pattern);
}

function patternOf(column: CoercionColumn): RegExp {
  return column.uidt === 'Email' ? EMAIL : column.uidt === 'URL' ? URL_LIKE : PHONE;
}

function formatted(column: CoercionColumn, text: string, pattern: RegExp): string {
  const value = text.trim();
  if (!pattern.test(value)) throw invalidValue(column.title, `not a valid ${column.uidt}`);
  return value;
}

/** Email, URL and phone number: text in the expected shape. */
export function toFormattedText(column: CoercionColumn, raw: unknown): string {
  return formatted(column, toText(column, raw), patternOf(column));
}

/** A finite number from a number or numeric text. */
export function toNumber(column: CoercionColumn, raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : NaN;
  if (!Number.isFinite(n)) throw invalidValue(column.title, 'expected a number');
  return n;
}

/** Number, Year, Rating: integers with bounds. */
export function toInteger(column: CoercionColumn, raw: unknown): number {
  const n = toNumber(column, raw);
  if (!Number.isSafeInteger(n)) throw invalidValue(column.title, 'expected an integer');
  if (column.uidt === 'Year' && (n < 1000 || n > 9999)) throw invalidValue(column.title, 'year must have 4 digits');
  if (column.uidt === 'Rating') {
    const max = Number(column.meta?.max ?? 5);
    if (n < 0 || n > max) throw invalidValue(column.title, `rating must be between 0 and ${max}`);
  }
  return n;
}

/** Decimal, Currency, Percent: numbers rounded to the column's scale (decimal digits). */
export function toDecimal(column: CoercionColumn, raw: unknown): number {
  const n = toNumber(column, raw);
  const scale = scaleOf(column);
  return scale === undefined ? n : Number(n.toFixed(scale));
}

/** The decimal digits a column rounds to, or undefined (Percent and unknown scales keep the number). */
function scaleOf(column: CoercionColumn): number | undefined {
  // meta.precision only says how a client shows the value (NocoDB keeps every digit).
  if (column.dtxs == null || column.dtxs === '') return undefined;
  const scale = Number(column.dtxs);
  return column.uidt !== 'Percent' && Number.isInteger(scale) && scale >= 0 && scale <= 12 ? scale : undefined;
}

/** {@link toDecimal} for one column: the scale read once; an integer needs no rounding. */
export function decimalCoercer(column: CoercionColumn): (raw: unknown) => number {
  const scale = scaleOf(column);
  return (raw) => {
    const n = toNumber(column, raw);
    // toFixed would turn -0 into 0: zero takes the rounding path.
    return scale === undefined || (Number.isInteger(n) && n !== 0) ? n : Number(n.toFixed(scale));
  };
}

/** Duration: seconds as a number, or `h:mm[:ss]` text. */
export function toDuration(column: CoercionColumn, raw: unknown): number {
  if (typeof raw === 'string' && raw.includes(':')) {
    const m = /^(\d+):([0-5]?\d)(?::([0-5]?\d(?:\.\d+)?))?$/.exec(raw.trim());
    if (!m) throw invalidValue(column.title, 'expected seconds or h:mm[:ss]');
    return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  }
  return toDecimal(column, raw);
}

/** Checkbox: booleans, 0/1 and their text forms. */
export function toBoolean(column: CoercionColumn, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    const t = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'checked'].includes(t)) return true;
    if (['false', '0', 'no', 'unchecked', ''].includes(t)) return false;
  }
  throw invalidValue(column.title, 'expected true or false');
}

/** UUID text (for writable uuid primary keys of external tables). */
export function toUuid(column: CoercionColumn, raw: unknown): string {
  const text = toText(column, raw).trim();
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) throw invalidValue(column.title, 'not a valid UUID');
  return text.toLowerCase();
}
