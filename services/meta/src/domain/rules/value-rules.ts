import { uidtEntry, valueRuleOf, type ValueRule } from '@tabula/query';

/**
 * Which values a uidt accepts: used to validate `cdf` and to find the rows that
 * cannot convert before a type change (so the 400 can name them).
 */
const INT = /^-?\d+$/;
const NUM = /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BOOL = new Set(['true', 'false', '1', '0', 't', 'f', 'yes', 'no']);

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text) && !Number.isNaN(Date.parse(text.replace(' ', 'T')));
}

/** The check of each value rule of the uidt catalogue (rules with none accept any value). */
const RULES: Partial<Record<ValueRule, (text: string, options: string[]) => boolean>> = {
  integer: (v) => INT.test(v), rating: (v) => INT.test(v) && Number(v) >= 0 && Number(v) <= 32767,
  year: (v) => INT.test(v) && v.replace('-', '').length <= 4,
  decimal: (v) => NUM.test(v), duration: (v) => NUM.test(v),
  boolean: (v) => BOOL.has(v.toLowerCase()),
  date: (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
  datetime: isDateTime, time: (v) => TIME.test(v),
  email: (v) => EMAIL.test(v), uuid: (v) => UUID.test(v), json: isJson,
  singleSelect: (v, o) => o.includes(v),
  multiSelect: (v, o) => v.split(',').every((part) => o.includes(part.trim())),
};

/** Rules whose stored default is a number. */
const NUMERIC = new Set<ValueRule>(['integer', 'rating', 'year', 'decimal', 'duration']);

/** True when `value` can be stored in a column of `uidt` (options: select titles). */
export function valueFits(uidt: string, value: unknown, options: string[] = []): boolean {
  if (value === null || value === undefined) return true;
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const rule = RULES[valueRuleOf(uidt)];
  return rule ? rule(text, options) : true;
}

/** Why a default is refused for a type, or undefined when it is acceptable. */
export function cdfProblem(uidt: string, cdf: unknown, options: string[]): string | undefined {
  if (cdf === null || cdf === undefined || cdf === '') return undefined;
  if (uidtEntry(uidt)?.noDefault) return `Default value is not supported for ${uidt} columns`;
  if (!valueFits(uidt, cdf, options)) return `Default value '${String(cdf)}' is not valid for ${uidt}`;
  return undefined;
}

/** The stored form of a default for the physical column (booleans and numbers typed). */
export function physicalDefault(uidt: string, cdf: unknown): unknown {
  if (cdf === null || cdf === undefined || cdf === '') return undefined;
  const text = String(cdf);
  if (uidt === 'Checkbox') return ['true', '1', 't', 'yes'].includes(text.toLowerCase());
  if (NUMERIC.has(valueRuleOf(uidt))) return Number(text);
  return typeof cdf === 'object' ? JSON.stringify(cdf) : text;
}
