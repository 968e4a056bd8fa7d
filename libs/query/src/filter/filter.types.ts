/** How a node joins the nodes before it: AND, OR, or AND NOT (NOT when first). */
export type LogicalOp = 'and' | 'or' | 'not';

/** Canonical comparison operators (aliases are mapped onto these). */
export type ComparisonOp =
  | 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'nlike' | 'is' | 'isnot'
  | 'in' | 'notin' | 'btw' | 'nbtw' | 'blank' | 'notblank' | 'empty' | 'notempty' | 'null' | 'notnull' | 'checked' | 'notchecked'
  | 'allof' | 'anyof' | 'nallof' | 'nanyof' | 'isWithin';

/** Date sub-operators for eq/neq/gt/gte/lt/lte. */
export type DateSubOp =
  | 'today' | 'tomorrow' | 'yesterday' | 'oneWeekAgo' | 'oneWeekFromNow' | 'oneMonthAgo'
  | 'oneMonthFromNow' | 'daysAgo' | 'daysFromNow' | 'exactDate';

/** Date sub-operators for isWithin. */
export type WithinSubOp =
  | 'pastWeek' | 'pastMonth' | 'pastYear' | 'nextWeek' | 'nextMonth' | 'nextYear'
  | 'pastNumberOfDays' | 'nextNumberOfDays';

/** Arguments of `is` / `isnot`. */
export type IsArgument = 'blank' | 'notblank' | 'null' | 'notnull' | 'true' | 'false';

/** A value already coerced to its column's type. */
export type Scalar = string | number | boolean;

/**
 * One resolved condition. `value` is typed by operator: a scalar for comparisons
 * (null for an empty value), a list for in/notin/btw/nbtw/anyof…, an
 * {@link IsArgument} for is/isnot, a day count for daysAgo/…NumberOfDays and a
 * date (`YYYY-MM-DD`, or `YYYY-MM-DD HH:mm:ss` in UTC) for exactDate.
 */
export interface FilterCondition {
  type: 'condition';
  logicalOp: LogicalOp;
  columnId: string;
  op: ComparisonOp;
  subOp?: DateSubOp | WithinSubOp;
  value?: Scalar | Scalar[] | null;
  /**
   * The caller's IANA time zone (NocoDB's `whereTz`): a DateTime compared by
   * day (eq today, isWithin pastWeek…) takes the days of that zone, not UTC's.
   */
  timeZone?: string;
}

/** A parenthesised group of nodes. The root of every filter is a group. */
export interface FilterGroup {
  type: 'group';
  logicalOp: LogicalOp;
  children: FilterNode[];
}

/** A node of the resolved filter AST (plain JSON, safe to pass between services). */
export type FilterNode = FilterCondition | FilterGroup;

/** A value as a client wrote it, before coercion. */
export type RawValue = string | number | boolean | null | undefined | (string | number | boolean | null)[];

/** A condition as written (where string, filterArrJson item or stored row), unresolved. */
export interface RawCondition {
  type: 'condition';
  logicalOp: LogicalOp;
  field: string;
  op: string;
  subOp?: string;
  value?: RawValue;
  /** True when the value came from the `where` language (sub-op may lead the value). */
  fromWhere?: boolean;
}

/** A group as written, unresolved. */
export interface RawGroup {
  type: 'group';
  logicalOp: LogicalOp;
  children: RawNode[];
}

/** A node as written, unresolved. */
export type RawNode = RawCondition | RawGroup;
