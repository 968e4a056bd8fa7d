/** Limits on client filters; past them the answer is 422, never a 500 or a stack overflow. */
export const FILTER_LIMITS = {
  /** Deepest nesting of groups. */
  maxDepth: 50,
  /** Most values in one in/notin/anyof/allof/… list. */
  maxListValues: 1000,
  /** Longest `where` string. */
  maxWhereLength: 10_000,
  /** Most filters in one stored filter tree (a view's or a hook's filter with its children). */
  maxStoredNodes: 1000,
  /** Longest filterArrJson / sortArrJson string. */
  maxJsonLength: 100_000,
} as const;
