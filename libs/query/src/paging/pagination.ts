/** Page size rules (SVC_DB_QUERY_LIMIT_DEFAULT / SVC_DB_QUERY_LIMIT_MAX). */
export interface PaginationOptions {
  /** Default page size (25). */
  defaultLimit?: number;
  /** Largest page size (1000). */
  maxLimit?: number;
}

/** A validated page window. */
export interface Pagination {
  limit: number;
  offset: number;
}

/** The paging block of every list response. */
export interface PageInfo {
  totalRows: number;
  page: number;
  pageSize: number;
  isFirstPage: boolean;
  isLastPage: boolean;
}

/**
 * NocoDB's limit/offset rules: a limit that is not an integer or is < 1 means
 * the default; others are clamped to [1, max] (`1e9` → max). An offset that is
 * negative or not an integer means 0. Repeated parameters use the first value.
 */
export function parsePagination(
  query: { limit?: unknown; offset?: unknown },
  options: PaginationOptions = {},
): Pagination {
  const maxLimit = Math.max(1, Math.floor(options.maxLimit ?? 1000));
  const defaultLimit = Math.min(maxLimit, Math.max(1, Math.floor(options.defaultLimit ?? 25)));
  const limit = toInteger(query.limit);
  const offset = toInteger(query.offset);
  return {
    limit: limit === undefined || limit < 1 ? defaultLimit : Math.min(limit, maxLimit),
    offset: offset === undefined || offset < 0 ? 0 : Math.min(offset, Number.MAX_SAFE_INTEGER),
  };
}

function toInteger(value: unknown): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number') return Number.isInteger(first) ? first : undefined;
  if (typeof first !== 'string' || first.trim() === '') return undefined;
  const n = Number(first.trim());
  return Number.isInteger(n) ? n : undefined;
}

/** pageInfo for a page: page = floor(offset / limit) + 1; last when nothing follows it. */
export function buildPageInfo(args: { totalRows: number; limit: number; offset: number }): PageInfo {
  const limit = Math.max(1, args.limit);
  const offset = Math.max(0, args.offset);
  const totalRows = Math.max(0, Number(args.totalRows) || 0);
  const page = Math.floor(offset / limit) + 1;
  return { totalRows, page, pageSize: limit, isFirstPage: page === 1, isLastPage: offset + limit >= totalRows };
}
