import type { ComparisonOp, DateSubOp, IsArgument, WithinSubOp } from './filter.types';

const OP_ALIASES: Record<string, ComparisonOp> = {
  eq: 'eq', neq: 'neq', not: 'neq', gt: 'gt', gte: 'gte', ge: 'gte', lt: 'lt', lte: 'lte', le: 'lte',
  like: 'like', nlike: 'nlike', is: 'is', isnot: 'isnot', in: 'in', notin: 'notin', btw: 'btw',
  nbtw: 'nbtw', blank: 'blank', empty: 'empty', null: 'null', notblank: 'notblank',
  notempty: 'notempty', notnull: 'notnull', checked: 'checked', notchecked: 'notchecked',
  allof: 'allof', anyof: 'anyof', nallof: 'nallof', nanyof: 'nanyof', iswithin: 'isWithin',
};

const DATE_SUB_OPS: readonly DateSubOp[] = [
  'today', 'tomorrow', 'yesterday', 'oneWeekAgo', 'oneWeekFromNow', 'oneMonthAgo',
  'oneMonthFromNow', 'daysAgo', 'daysFromNow', 'exactDate',
];
const WITHIN_SUB_OPS: readonly WithinSubOp[] = [
  'pastWeek', 'pastMonth', 'pastYear', 'nextWeek', 'nextMonth', 'nextYear',
  'pastNumberOfDays', 'nextNumberOfDays',
];
const IS_ARGUMENTS: Record<string, IsArgument> = {
  blank: 'blank', empty: 'blank', notblank: 'notblank', notempty: 'notblank',
  null: 'null', notnull: 'notnull', true: 'true', false: 'false',
};

/** Operators whose value is a comma-separated list. */
export const LIST_OPS: ReadonlySet<ComparisonOp> = new Set(['in', 'notin', 'allof', 'anyof', 'nallof', 'nanyof']);
/** Operators that take no value. */
export const VALUELESS_OPS: ReadonlySet<ComparisonOp> = new Set(['blank', 'notblank', 'empty', 'notempty', 'null', 'notnull', 'checked', 'notchecked']);
/** Operators that take a date sub-operator on date columns. */
export const DATE_COMPARE_OPS: ReadonlySet<ComparisonOp> = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte']);

/** The canonical operator for a name (case-insensitive, aliases mapped), or undefined. */
export function canonicalOp(name: string): ComparisonOp | undefined {
  const key = name.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(OP_ALIASES, key) ? OP_ALIASES[key] : undefined;
}

/** The date sub-operator for a name (case-insensitive), or undefined. */
export function dateSubOp(name: string): DateSubOp | undefined {
  return findIgnoringCase(DATE_SUB_OPS, name);
}

/** The isWithin sub-operator for a name (case-insensitive), or undefined. */
export function withinSubOp(name: string): WithinSubOp | undefined {
  return findIgnoringCase(WITHIN_SUB_OPS, name);
}

/** The is/isnot argument for a value (case-insensitive), or undefined. */
export function isArgument(value: string): IsArgument | undefined {
  const key = value.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(IS_ARGUMENTS, key) ? IS_ARGUMENTS[key] : undefined;
}

function findIgnoringCase<T extends string>(list: readonly T[], name: string): T | undefined {
  const key = name.trim().toLowerCase();
  return list.find((item) => item.toLowerCase() === key);
}
