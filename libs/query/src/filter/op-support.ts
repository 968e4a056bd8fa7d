import type { ColumnMeta } from '../column/column.types';
import type { ColumnKind } from '../column/column-kind';
import { QueryError } from '../query-error';
import type { ComparisonOp } from './filter.types';

const COMPARE: ComparisonOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
const NULLS: ComparisonOp[] = ['blank', 'notblank', 'empty', 'notempty', 'null', 'notnull', 'is', 'isnot'];
const LIKE: ComparisonOp[] = ['like', 'nlike'];
const RANGE: ComparisonOp[] = ['in', 'notin', 'btw', 'nbtw'];
const MEMBERSHIP: ComparisonOp[] = ['allof', 'anyof', 'nallof', 'nanyof'];

const SUPPORTED: Record<Exclude<ColumnKind, 'virtual'>, ReadonlySet<ComparisonOp>> = {
  text: new Set([...COMPARE, ...NULLS, ...LIKE, ...RANGE, ...MEMBERSHIP]),
  number: new Set([...COMPARE, ...NULLS, ...LIKE, ...RANGE]),
  checkbox: new Set<ComparisonOp>(['eq', 'neq', 'checked', 'notchecked', ...NULLS]),
  date: new Set<ComparisonOp>([...COMPARE, ...NULLS, ...LIKE, ...RANGE, 'isWithin']),
  datetime: new Set<ComparisonOp>([...COMPARE, ...NULLS, ...LIKE, ...RANGE, 'isWithin']),
  time: new Set([...COMPARE, ...NULLS, ...LIKE, ...RANGE]),
  json: new Set<ComparisonOp>(['eq', 'neq', ...NULLS, ...LIKE]),
};

/** Throws 422 when the operator makes no sense for the column (or the column cannot be filtered here). */
export function assertOpSupported(column: ColumnMeta, kind: ColumnKind, op: ComparisonOp): void {
  if (kind === 'virtual') {
    throw QueryError.invalidFilter(`Filtering on column '${column.title}' (${column.uidt}) is not supported`, {
      column: column.title,
    });
  }
  if (!SUPPORTED[kind].has(op)) {
    throw QueryError.invalidFilter(`Operator '${op}' is not supported for column '${column.title}' (${column.uidt})`, {
      column: column.title,
      op,
    });
  }
}
