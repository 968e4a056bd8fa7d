import { toColumnIndex, type ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { QueryError } from '../query-error';
import type { FilterGroup, RawNode, RawValue } from './filter.types';
import { resolveFilter } from './filter.resolver';
import { toLogicalOp } from './filter-arr-json.normaliser';
import { FILTER_LIMITS } from './limits';

/** A view or hook filter row as the meta service stores it (NocoDB shape, a tree by fk_parent_id). */
export interface StoredFilterRow {
  id: string;
  fk_column_id?: string | null;
  comparison_op?: string | null;
  comparison_sub_op?: string | null;
  value?: RawValue;
  fk_parent_id?: string | null;
  is_group?: boolean | number | null;
  logical_op?: string | null;
  order?: number | null;
}

/** Options of {@link filterFromRows}. */
export interface FilterRowsOptions {
  /** Skip conditions on columns that no longer exist (default true, as NocoDB does). */
  skipUnknownColumns?: boolean;
}

/**
 * Turns stored filter rows into the filter AST: rows are nested under their
 * `fk_parent_id` (rows whose parent is missing are top level), siblings sorted by
 * `order`; rows without an operator are incomplete and skipped.
 */
export function filterFromRows(
  rows: readonly StoredFilterRow[],
  columns: readonly ColumnMeta[] | ColumnIndex,
  options: FilterRowsOptions = {},
): FilterGroup {
  const index = toColumnIndex(columns);
  const skipUnknown = options.skipUnknownColumns ?? true;
  const ids = new Set(rows.map((r) => r.id));
  const byParent = new Map<string | null, StoredFilterRow[]>();
  for (const row of rows) {
    const parent = row.fk_parent_id && ids.has(row.fk_parent_id) && row.fk_parent_id !== row.id ? row.fk_parent_id : null;
    const siblings = byParent.get(parent);
    if (siblings) siblings.push(row);
    else byParent.set(parent, [row]);
  }
  const build = (parent: string | null, depth: number): RawNode[] => {
    if (depth > FILTER_LIMITS.maxDepth) throw QueryError.invalidFilter('Stored filters nested too deeply');
    const siblings = [...(byParent.get(parent) ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    return siblings.flatMap((row) => toRawNode(row, depth, build, index, skipUnknown));
  };
  return resolveFilter({ type: 'group', logicalOp: 'and', children: build(null, 0) }, index);
}

function toRawNode(
  row: StoredFilterRow,
  depth: number,
  build: (parent: string, depth: number) => RawNode[],
  index: ColumnIndex,
  skipUnknown: boolean,
): RawNode[] {
  const logicalOp = toLogicalOp(row.logical_op);
  if (row.is_group === true || row.is_group === 1) {
    return [{ type: 'group', logicalOp, children: build(row.id, depth + 1) }];
  }
  if (!row.comparison_op || !row.fk_column_id) return [];
  if (skipUnknown && !index.find(row.fk_column_id)) return [];
  const node: RawNode = { type: 'condition', logicalOp, field: row.fk_column_id, op: row.comparison_op, value: row.value };
  if (row.comparison_sub_op) node.subOp = row.comparison_sub_op;
  return [node];
}
