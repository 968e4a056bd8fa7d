import { z } from 'zod';

/**
 * One paging rule for every list (records, bases, tables, hooks, hook logs,
 * comments, API tokens, base members), NocoDB's (compat-notes "Records"):
 * `limit`/`offset` (NocoDB) or `page`/`pageSize` (spec). A size that is not an
 * integer or is < 1 means the default; sizes are clamped to [1, max] (`1e9` →
 * max). An offset that is negative or not an integer means none (then `page`
 * decides, else 0). A repeated parameter uses its first value. Nothing here
 * answers 400: odd paging never fails a list.
 */
const pagingParam = z.union([z.string(), z.number(), z.array(z.string())]).optional();

/** The paging query of every list; endpoints extend it with their own parameters. */
export const pagingQuery = z.looseObject({
  limit: pagingParam.describe('Page size (alias: pageSize); invalid values mean the default, large ones the maximum'),
  offset: pagingParam.describe('Rows to skip; invalid values mean 0'),
  page: pagingParam.describe('1-based page (with pageSize or limit); ignored when offset is given'),
  pageSize: pagingParam.describe('Page size (alias: limit)'),
});

/** The paging parameters as received (text, repeated text or numbers). */
export interface PagingInput {
  limit?: unknown;
  offset?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

/** A list's default and largest page size. */
export interface PagingDefaults {
  /** Page size when none (or an invalid one) is asked for. */
  limit: number;
  /** Largest page size. */
  max: number;
}

/** The resolved window of a page. */
export interface Paging {
  limit: number;
  offset: number;
}

/** The page sizes of most lists (SVC_DB_QUERY_LIMIT_DEFAULT / SVC_DB_QUERY_LIMIT_MAX for records). */
export const DEFAULT_PAGING: PagingDefaults = { limit: 25, max: 1000 };

function toInteger(value: unknown): number | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'number') return Number.isInteger(first) ? first : undefined;
  if (typeof first !== 'string' || first.trim() === '') return undefined;
  const n = Number(first.trim());
  return Number.isInteger(n) ? n : undefined;
}

const positive = (n: number | undefined): number | undefined => (n !== undefined && n >= 1 ? n : undefined);

/** Resolves a paging query to limit/offset with the list's default and maximum (the rule above). */
export function resolvePaging(q: PagingInput, defaults: PagingDefaults = DEFAULT_PAGING): Paging {
  const max = Math.max(1, Math.floor(defaults.max));
  const fallback = Math.min(max, Math.max(1, Math.floor(defaults.limit)));
  const size = positive(toInteger(q.limit)) ?? positive(toInteger(q.pageSize));
  const limit = size === undefined ? fallback : Math.min(size, max);
  const offset = toInteger(q.offset);
  if (offset !== undefined && offset >= 0) return { limit, offset: Math.min(offset, Number.MAX_SAFE_INTEGER) };
  const page = positive(toInteger(q.page));
  return { limit, offset: page === undefined ? 0 : Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER) };
}

/** `pageInfo` of a list response. */
export const pageInfoSchema = z.object({
  totalRows: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  isFirstPage: z.boolean(),
  isLastPage: z.boolean(),
});

export type PageInfo = z.infer<typeof pageInfoSchema>;

/** `{ list, pageInfo }` of items. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), pageInfo: pageInfoSchema });
}

/** pageInfo of a page: page = floor(offset / limit) + 1; first when page is 1; last when nothing follows it. */
export function pageInfo(totalRows: number, limit: number, offset: number): PageInfo {
  const size = Math.max(1, limit);
  const skip = Math.max(0, offset);
  const total = Math.max(0, Number(totalRows) || 0);
  const page = Math.floor(skip / size) + 1;
  return { totalRows: total, page, pageSize: size, isFirstPage: page === 1, isLastPage: skip + size >= total };
}

/** `{ list, pageInfo }` of one page. */
export function pageOf<T>(list: T[], totalRows: number, paging: Paging): { list: T[]; pageInfo: PageInfo } {
  return { list, pageInfo: pageInfo(totalRows, paging.limit, paging.offset) };
}

/** A whole (small) list as its only page. */
export function singlePage<T>(list: T[]): { list: T[]; pageInfo: PageInfo } {
  return pageOf(list, list.length, { limit: Math.max(list.length, 1), offset: 0 });
}
