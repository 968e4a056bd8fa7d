import type { ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { columnKind, type ColumnKind } from '../column/column-kind';
import { QueryError } from '../query-error';
import type { ComparisonOp, FilterCondition, RawCondition, Scalar } from './filter.types';
import { resolveDateCompare, resolveWithin } from './date-condition.resolver';
import { assertOpSupported } from './op-support';
import { DATE_COMPARE_OPS, LIST_OPS, VALUELESS_OPS, canonicalOp, isArgument } from './operators';
import { coerceScalar, rawList, rawText } from './value.coercer';

type Resolved = Pick<FilterCondition, 'subOp' | 'value'> | null;

/**
 * Binds a written condition to its column and coerces its value. Returns null
 * for a condition that is to be ignored (a date sub-operator without its value,
 * a comparison without a value), as NocoDB ignores them. Throws 422 for an
 * unknown column or operator, or a value that does not fit the column.
 */
export function resolveCondition(raw: RawCondition, columns: ColumnIndex): FilterCondition | null {
  const column = columns.find(raw.field);
  if (!column) {
    throw QueryError.invalidFilter(`Column '${shorten(raw.field)}' not found`, { column: shorten(raw.field) });
  }
  const op = canonicalOp(raw.op);
  if (!op) throw QueryError.invalidFilter(`Operator '${shorten(raw.op)}' is not supported`, { op: shorten(raw.op) });
  const kind = columnKind(column);
  assertOpSupported(column, kind, op);
  const resolved = resolveValue(raw, op, column, kind);
  if (!resolved) return null;
  const condition: FilterCondition = { type: 'condition', logicalOp: raw.logicalOp, columnId: column.id, op };
  if (resolved.subOp) condition.subOp = resolved.subOp;
  if (resolved.value !== undefined) condition.value = resolved.value;
  return condition;
}

function resolveValue(raw: RawCondition, op: ComparisonOp, column: ColumnMeta, kind: ColumnKind): Resolved {
  const isDate = kind === 'date' || kind === 'datetime';
  if (VALUELESS_OPS.has(op)) return {};
  if (op === 'isWithin') return resolveWithin(raw, column);
  if (isDate && DATE_COMPARE_OPS.has(op)) return resolveDateCompare(raw, column);
  if (op === 'is' || op === 'isnot') return { value: resolveIsArgument(raw, column, kind) };
  if (op === 'like' || op === 'nlike') return { value: rawText(raw.value) };
  if (LIST_OPS.has(op)) return { value: resolveList(raw, op, column, kind) };
  if (op === 'btw' || op === 'nbtw') return { value: resolveRange(raw, column, kind) };
  const text = rawText(raw.value);
  if (text === '' && kind !== 'text' && kind !== 'json') {
    return op === 'eq' || op === 'neq' ? { value: null } : null;
  }
  if (text === '' && op !== 'eq' && op !== 'neq') return null;
  return { value: text === '' ? null : coerceScalar(text, column, kind) };
}

function resolveIsArgument(raw: RawCondition, column: ColumnMeta, kind: ColumnKind): string {
  const text = rawText(raw.value);
  const arg = isArgument(text);
  if (!arg) {
    throw QueryError.invalidFilter(
      `Invalid value '${shorten(text)}' for '${raw.op}' on column '${column.title}': expected blank, notblank, null, notnull, true or false`,
      { column: column.title, value: shorten(text) },
    );
  }
  if ((arg === 'true' || arg === 'false') && kind !== 'checkbox') {
    throw QueryError.invalidFilter(`'${raw.op} ${arg}' needs a checkbox column; '${column.title}' is ${column.uidt}`, {
      column: column.title,
    });
  }
  return arg;
}

function resolveList(raw: RawCondition, op: ComparisonOp, column: ColumnMeta, kind: ColumnKind): Scalar[] {
  const items = rawList(raw.value, column);
  const keepEmpty = kind === 'text' && (op === 'in' || op === 'notin');
  return items.filter((item) => keepEmpty || item !== '').map((item) => coerceScalar(item, column, kind));
}

function resolveRange(raw: RawCondition, column: ColumnMeta, kind: ColumnKind): Scalar[] {
  const items = rawList(raw.value, column);
  if (items.length !== 2 || items.some((item) => item === '')) {
    throw QueryError.invalidFilter(`'${raw.op}' on column '${column.title}' needs two values: low,high`, {
      column: column.title,
      value: shorten(rawText(raw.value)),
    });
  }
  return items.map((item) => coerceScalar(item, column, kind));
}

function shorten(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
