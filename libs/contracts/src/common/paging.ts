import { z } from 'zod';

/**
 * The paging query of every list (one rule everywhere): `limit`/`offset`
 * (NocoDB) or `page`/`pageSize` (spec). Values that are not whole numbers are
 * refused with 400; a page size above the maximum is clamped by the handler.
 */
export const pagingQuery = z.object({
  limit: z.coerce.number().int().min(1).optional().describe('Page size (alias: pageSize)'),
  offset: z.coerce.number().int().min(0).optional().describe('Rows to skip'),
  page: z.coerce.number().int().min(1).optional().describe('1-based page (with pageSize)'),
  pageSize: z.coerce.number().int().min(1).optional().describe('Page size'),
});

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

/** Resolves a paging query to limit/offset with a default and a clamp. */
export function resolvePaging(q: z.infer<typeof pagingQuery>, defaults: { limit: number; max: number }): { limit: number; offset: number } {
  const size = Math.min(q.limit ?? q.pageSize ?? defaults.limit, defaults.max);
  const offset = q.offset ?? (q.page ? (q.page - 1) * size : 0);
  return { limit: size, offset };
}

/** Builds `pageInfo` from a total, limit and offset. */
export function pageInfo(totalRows: number, limit: number, offset: number): PageInfo {
  return {
    totalRows, pageSize: limit, page: Math.floor(offset / limit) + 1,
    isFirstPage: offset === 0, isLastPage: offset + limit >= totalRows,
  };
}
