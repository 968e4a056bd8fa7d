import { z } from 'zod';
import type { ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { QueryError } from '../query-error';
import type { FilterGroup, LogicalOp, RawGroup, RawNode } from './filter.types';
import { resolveFilter } from './filter.resolver';
import { FILTER_LIMITS } from './limits';

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One filterArrJson item in either key style (the spec's or NocoDB's). */
const filterItemSchema = z.object({
  /** Spec style: column title or id. */
  field: z.string().optional(),
  /** NocoDB style: column id (titles accepted too). */
  fk_column_id: z.string().nullish(),
  /** Spec style operator. */
  op: z.string().optional(),
  /** NocoDB style operator. */
  comparison_op: z.string().nullish(),
  /** Date sub-operator (NocoDB style; `sub_op` accepted). */
  comparison_sub_op: z.string().nullish(),
  sub_op: z.string().nullish(),
  /** Comparison value; a list may be an array. */
  value: z.union([scalar, z.array(scalar)]).optional(),
  /** and / or / not; default and. */
  logical_op: z.string().nullish(),
  logicalOp: z.string().nullish(),
  /** Group flag (true, 1 or "true"). */
  is_group: z.union([z.boolean(), z.number(), z.string()]).nullish(),
  /** Group members. */
  children: z.array(z.unknown()).nullish(),
});
type FilterItem = z.infer<typeof filterItemSchema>;

/**
 * Parses a `filterArrJson` query value into the filter AST.
 * @throws QueryError 400 ERR_INVALID_REQUEST for malformed JSON or a non-array,
 *   422 ERR_INVALID_FILTER for bad items, unknown columns or operators.
 */
export function parseFilterArrJson(json: string | undefined | null, columns: readonly ColumnMeta[] | ColumnIndex): FilterGroup {
  if (json === undefined || json === null || json.trim() === '') return { type: 'group', logicalOp: 'and', children: [] };
  if (json.length > FILTER_LIMITS.maxJsonLength) {
    throw QueryError.invalidFilter(`Invalid filterArrJson: longer than ${FILTER_LIMITS.maxJsonLength} characters`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw QueryError.invalidRequest('Invalid JSON in filterArrJson');
  }
  if (!Array.isArray(parsed)) throw QueryError.invalidRequest('filterArrJson must be a JSON array');
  return normaliseFilterArr(parsed, columns);
}

/** Normalises already-parsed filter items (either key style) into the filter AST. */
export function normaliseFilterArr(items: readonly unknown[], columns: readonly ColumnMeta[] | ColumnIndex): FilterGroup {
  return resolveFilter({ type: 'group', logicalOp: 'and', children: toRawNodes(items, 0) }, columns);
}

function toRawNodes(items: readonly unknown[], depth: number): RawNode[] {
  if (depth > FILTER_LIMITS.maxDepth) {
    throw QueryError.invalidFilter(`Invalid filterArrJson: groups nested deeper than ${FILTER_LIMITS.maxDepth}`);
  }
  return items.map((item, i) => toRawNode(item, depth, i));
}

function toRawNode(input: unknown, depth: number, index: number): RawNode {
  const result = filterItemSchema.safeParse(input);
  if (!result.success) {
    throw QueryError.invalidFilter(`Invalid filterArrJson item ${index}: ${result.error.issues[0]?.message ?? 'bad shape'}`, {
      index,
    });
  }
  const item = result.data;
  const logicalOp = toLogicalOp(item.logical_op ?? item.logicalOp, index);
  if (isGroup(item)) {
    return { type: 'group', logicalOp, children: toRawNodes(item.children ?? [], depth + 1) } satisfies RawGroup;
  }
  const field = item.field ?? item.fk_column_id;
  const op = item.op ?? item.comparison_op;
  if (!field || !op) {
    throw QueryError.invalidFilter(`Invalid filterArrJson item ${index}: 'field' and 'op' are required`, { index });
  }
  const subOp = item.comparison_sub_op ?? item.sub_op ?? undefined;
  return { type: 'condition', logicalOp, field, op, value: item.value, ...(subOp ? { subOp } : {}) };
}

function isGroup(item: FilterItem): boolean {
  const flag = item.is_group;
  return flag === true || flag === 1 || flag === 'true' || (!!item.children && !item.field && !item.fk_column_id);
}

/** `and` / `or` / `not` (any case); missing means `and`. */
export function toLogicalOp(value: string | null | undefined, index = 0): LogicalOp {
  if (value === null || value === undefined || value === '') return 'and';
  const op = value.toLowerCase();
  if (op === 'and' || op === 'or' || op === 'not') return op;
  throw QueryError.invalidFilter(`Invalid logical operator '${value.slice(0, 20)}' in filter item ${index}`, { index });
}
