import { invalidValue } from './value-errors';
import type { CoercionColumn } from './scalar.coercers';

function optionTitles(column: CoercionColumn): string[] {
  return (column.colOptions?.options ?? []).map((o) => o.title);
}

function checkOption(column: CoercionColumn, value: string): void {
  const options = optionTitles(column);
  if (!options.includes(value)) {
    throw invalidValue(column.title, `'${value}' is not one of the options: ${options.map((o) => `'${o}'`).join(', ')}`, { options });
  }
}

/** SingleSelect: one of the column's option titles. */
export function toSingleSelect(column: CoercionColumn, raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw invalidValue(column.title, 'expected an option title', { options: optionTitles(column) });
  const value = String(raw);
  checkOption(column, value);
  return value;
}

/** MultiSelect: an array or a comma string of option titles, stored as a comma string. */
export function toMultiSelect(column: CoercionColumn, raw: unknown): string | null {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
  if (!items || items.some((i) => typeof i !== 'string' && typeof i !== 'number')) {
    throw invalidValue(column.title, 'expected option titles as an array or a comma-separated string', { options: optionTitles(column) });
  }
  const values = [...new Set(items.map((i) => String(i).trim()).filter((i) => i !== ''))];
  values.forEach((v) => checkOption(column, v));
  return values.length ? values.join(',') : null;
}

/** JSON: any JSON value (text must parse); stored as JSON text. */
export function toJson(column: CoercionColumn, raw: unknown): string {
  if (typeof raw === 'string') {
    try {
      JSON.parse(raw);
      return raw;
    } catch {
      throw invalidValue(column.title, 'expected valid JSON');
    }
  }
  return JSON.stringify(raw);
}

/** Attachment: an array of `{title, mimetype, size, path|url}` (or its JSON text), stored as JSON text. */
export function toAttachments(column: CoercionColumn, raw: unknown): string {
  let value = raw;
  if (typeof raw === 'string') {
    try { value = JSON.parse(raw); } catch { throw invalidValue(column.title, 'expected an array of attachments'); }
  }
  if (!Array.isArray(value)) throw invalidValue(column.title, 'expected an array of attachments');
  value.forEach((item, i) => checkAttachment(column, item, i));
  return JSON.stringify(value);
}

function checkAttachment(column: CoercionColumn, item: unknown, i: number): void {
  const a = item as Record<string, unknown>;
  const ok = !!a && typeof a === 'object' && !Array.isArray(a)
    && (typeof a.path === 'string' || typeof a.url === 'string')
    && (a.title === undefined || typeof a.title === 'string')
    && (a.mimetype === undefined || typeof a.mimetype === 'string')
    && (a.size === undefined || (typeof a.size === 'number' && a.size >= 0));
  if (!ok) throw invalidValue(column.title, `attachment ${i} needs a path or url (title, mimetype text; size a number)`);
}

/** GeoData: `lat;lng` within range. */
export function toGeoData(column: CoercionColumn, raw: unknown): string {
  const m = typeof raw === 'string' ? /^\s*(-?\d+(?:\.\d+)?)\s*;\s*(-?\d+(?:\.\d+)?)\s*$/.exec(raw) : null;
  if (!m || Math.abs(Number(m[1])) > 90 || Math.abs(Number(m[2])) > 180) throw invalidValue(column.title, "expected 'latitude;longitude'");
  return `${Number(m[1])};${Number(m[2])}`;
}
