import { FILTER_LIMITS } from './limits';

/** Size of a stored-filter body (`{ is_group, children: [...] }`). */
export interface FilterTreeSize {
  /** Deepest nesting of groups (a top-level group is 1; conditions add nothing). */
  depth: number;
  /** Filters in the tree, groups included. */
  nodes: number;
}

function childrenOf(node: unknown): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const children = (node as { children?: unknown }).children;
  return Array.isArray(children) ? children : [];
}

function isGroup(node: unknown): boolean {
  return !!node && typeof node === 'object' && ((node as { is_group?: unknown }).is_group === true || childrenOf(node).length > 0);
}

/**
 * Measures a stored-filter body without recursion (a 100 000-deep body is
 * measured, never a stack overflow), stopping early once past `stopAt` nodes.
 */
export function measureFilterTree(root: unknown, stopAt = Number.MAX_SAFE_INTEGER): FilterTreeSize {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: isGroup(root) ? 1 : 0 }];
  let depth = 0;
  let nodes = 0;
  while (stack.length > 0 && nodes <= stopAt) {
    const { node, depth: at } = stack.pop()!;
    nodes += 1;
    depth = Math.max(depth, at);
    for (const child of childrenOf(node)) stack.push({ node: child, depth: at + (isGroup(child) ? 1 : 0) });
  }
  return { depth, nodes };
}

/**
 * Why a stored filter (plus the groups above it, `parentDepth`) may not be
 * saved, or undefined: nested deeper than the query library will ever read
 * ({@link FILTER_LIMITS}.maxDepth), or more than maxStoredNodes filters.
 * Saving is refused, so a view never holds a filter it cannot answer.
 */
export function storedFilterTreeProblem(root: unknown, parentDepth = 0): string | undefined {
  const { depth, nodes } = measureFilterTree(root, FILTER_LIMITS.maxStoredNodes);
  if (nodes > FILTER_LIMITS.maxStoredNodes) return `A filter tree may hold at most ${FILTER_LIMITS.maxStoredNodes} filters`;
  if (depth + parentDepth > FILTER_LIMITS.maxDepth) return `Filter groups may not be nested deeper than ${FILTER_LIMITS.maxDepth}`;
  return undefined;
}
