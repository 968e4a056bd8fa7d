import { toColumnIndex, type ColumnIndex } from '../column/column-index';
import type { ColumnMeta } from '../column/column.types';
import { QueryError } from '../query-error';
import type { FilterGroup, FilterNode, RawGroup, RawNode } from './filter.types';
import { resolveCondition } from './condition.resolver';
import { FILTER_LIMITS } from './limits';
import { parseWhereSyntax } from './where.parser';

/**
 * Resolves a written filter tree against the table's columns: column names
 * become column ids, operators their canonical names, values typed. Ignored
 * conditions and groups left empty disappear. 422 on anything invalid.
 */
export function resolveFilter(raw: RawGroup, columns: readonly ColumnMeta[] | ColumnIndex): FilterGroup {
  const index = toColumnIndex(columns);
  return { type: 'group', logicalOp: raw.logicalOp, children: resolveChildren(raw.children, index, 0) };
}

function resolveChildren(nodes: readonly RawNode[], index: ColumnIndex, depth: number): FilterNode[] {
  const out: FilterNode[] = [];
  for (const node of nodes) {
    const resolved = resolveNode(node, index, depth);
    if (resolved) out.push(resolved);
  }
  return out;
}

function resolveNode(node: RawNode, index: ColumnIndex, depth: number): FilterNode | null {
  if (node.type === 'condition') return resolveCondition(node, index);
  if (depth + 1 > FILTER_LIMITS.maxDepth) {
    throw QueryError.invalidFilter(`Invalid filter: groups nested deeper than ${FILTER_LIMITS.maxDepth}`);
  }
  const children = resolveChildren(node.children, index, depth + 1);
  return children.length ? { type: 'group', logicalOp: node.logicalOp, children } : null;
}

/**
 * Parses and resolves a `where` string. Empty or missing: an empty group (no filter).
 * @throws QueryError 422 ERR_INVALID_FILTER on bad syntax, unknown column or operator, bad values or limits.
 */
export function parseWhere(where: string | undefined | null, columns: readonly ColumnMeta[] | ColumnIndex): FilterGroup {
  if (where === undefined || where === null) return emptyFilter();
  if (typeof where !== 'string') throw QueryError.invalidFilter('Invalid where: a string is expected');
  return resolveFilter(parseWhereSyntax(where), columns);
}

/** A filter that matches everything. */
export function emptyFilter(): FilterGroup {
  return { type: 'group', logicalOp: 'and', children: [] };
}

/** ANDs several filters (missing or empty ones are skipped) into one group. */
export function andFilters(...filters: (FilterGroup | null | undefined)[]): FilterGroup {
  const children: FilterNode[] = filters
    .filter((f): f is FilterGroup => !!f && f.children.length > 0)
    .map((f) => ({ ...f, logicalOp: 'and' }));
  return { type: 'group', logicalOp: 'and', children };
}
