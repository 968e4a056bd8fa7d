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

const RULES: Record<string, (text: string, options: string[]) => boolean> = {
  Number: (v) => INT.test(v), Rating: (v) => INT.test(v) && Number(v) >= 0 && Number(v) <= 32767,
  Year: (v) => INT.test(v) && v.replace('-', '').length <= 4,
  Decimal: (v) => NUM.test(v), Currency: (v) => NUM.test(v), Duration: (v) => NUM.test(v), Percent: (v) => NUM.test(v),
  Checkbox: (v) => BOOL.has(v.toLowerCase()),
  Date: (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
  DateTime: isDateTime, Time: (v) => TIME.test(v),
  Email: (v) => EMAIL.test(v), UUID: (v) => UUID.test(v), JSON: isJson,
  SingleSelect: (v, o) => o.includes(v),
  MultiSelect: (v, o) => v.split(',').every((part) => o.includes(part.trim())),
};

/** Types whose column never takes a client default. */
const NO_DEFAULT = new Set(['ID', 'AutoNumber', 'Attachment', 'CreatedTime', 'LastModifiedTime', 'CreatedBy', 'LastModifiedBy', 'QrCode', 'Barcode', 'Button']);

/** True when `value` can be stored in a column of `uidt` (options: select titles). */
export function valueFits(uidt: string, value: unknown, options: string[] = []): boolean {
  if (value === null || value === undefined) return true;
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const rule = RULES[uidt];
  return rule ? rule(text, options) : true;
}

/** Why a default is refused for a type, or undefined when it is acceptable. */
export function cdfProblem(uidt: string, cdf: unknown, options: string[]): string | undefined {
  if (cdf === null || cdf === undefined || cdf === '') return undefined;
  if (NO_DEFAULT.has(uidt)) return `Default value is not supported for ${uidt} columns`;
  if (!valueFits(uidt, cdf, options)) return `Default value '${String(cdf)}' is not valid for ${uidt}`;
  return undefined;
}

/** The stored form of a default for the physical column (booleans and numbers typed). */
export function physicalDefault(uidt: string, cdf: unknown): unknown {
  if (cdf === null || cdf === undefined || cdf === '') return undefined;
  const text = String(cdf);
  if (uidt === 'Checkbox') return ['true', '1', 't', 'yes'].includes(text.toLowerCase());
  if (RULES[uidt] && ['Number', 'Rating', 'Year', 'Decimal', 'Currency', 'Duration', 'Percent'].includes(uidt)) return Number(text);
  return typeof cdf === 'object' ? JSON.stringify(cdf) : text;
}
