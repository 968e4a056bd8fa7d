import type { ColumnMeta } from '../column/column.types';
import { QueryError } from '../query-error';
import type { ComparisonOp, DateSubOp, RawCondition, WithinSubOp } from './filter.types';
import { dateSubOp, withinSubOp } from './operators';
import { invalidValue, rawText, toDayCount } from './value.coercer';
import { parseDateValue } from './date-value';

/** Sub-operator and value of a date comparison; null when the condition is to be dropped. */
export type DatePart = { subOp?: DateSubOp | WithinSubOp; value: string | number | null } | null;

/**
 * Resolves `eq/neq/gt/gte/lt/lte` on a date column. The sub-operator is either
 * given (filterArrJson, stored rows) or leads the value (`exactDate,2024-01-31`);
 * a bare date means exactDate. An empty value is `null` (eq/neq test NULL); a
 * sub-operator missing its value drops the condition, as NocoDB does.
 */
export function resolveDateCompare(raw: RawCondition, column: ColumnMeta): DatePart {
  const { name, rest } = splitSubOp(raw);
  if (name === undefined) return { value: null };
  let subOp = dateSubOp(name);
  let text = rest;
  if (!subOp) {
    if (raw.subOp || !parseDateValue(rawText(raw.value))) throw unknownSubOp(column, name, raw.op);
    subOp = 'exactDate';
    text = rawText(raw.value);
  }
  if (subOp === 'exactDate') {
    if (!text.trim()) return null;
    const value = parseDateValue(text);
    if (!value) throw invalidValue(column, text, 'a date (YYYY-MM-DD[ HH:mm:ss]) is expected');
    return { subOp, value };
  }
  if (subOp === 'daysAgo' || subOp === 'daysFromNow') {
    return text.trim() ? { subOp, value: toDayCount(text, column) } : null;
  }
  return { subOp, value: null };
}

/** Resolves `isWithin`: pastWeek … nextYear, or past/nextNumberOfDays with a day count. */
export function resolveWithin(raw: RawCondition, column: ColumnMeta): DatePart {
  const { name, rest } = splitSubOp(raw);
  const subOp = name === undefined ? undefined : withinSubOp(name);
  if (!subOp) throw unknownSubOp(column, name ?? '', 'isWithin');
  if (subOp === 'pastNumberOfDays' || subOp === 'nextNumberOfDays') {
    return rest.trim() ? { subOp, value: toDayCount(rest, column) } : null;
  }
  return { subOp, value: null };
}

function splitSubOp(raw: RawCondition): { name?: string; rest: string } {
  if (raw.subOp !== undefined && raw.subOp !== '') return { name: raw.subOp, rest: rawText(raw.value) };
  const text = rawText(raw.value).trim();
  if (!text) return { rest: '' };
  const comma = text.indexOf(',');
  return comma < 0 ? { name: text, rest: '' } : { name: text.slice(0, comma).trim(), rest: text.slice(comma + 1) };
}

function unknownSubOp(column: ColumnMeta, name: string, op: ComparisonOp | string): QueryError {
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  return QueryError.invalidFilter(
    `Invalid date sub-operator '${shown}' for '${op}' on column '${column.title}'`,
    { column: column.title, op, subOp: shown },
  );
}
