/** The spec's pageInfo. */
export interface PageInfo {
  totalRows: number;
  page: number;
  pageSize: number;
  isFirstPage: boolean;
  isLastPage: boolean;
}

/** Page request after defaults and bounds. */
export interface Paging {
  page: number;
  pageSize: number;
  offset: number;
}

/** Reads page/pageSize (or limit/offset) with defaults; pageSize capped at 1000. */
export function pagingOf(query: { page?: number; pageSize?: number; limit?: number; offset?: number }, fallbackSize = 25): Paging {
  const pageSize = Math.min(Math.max(query.pageSize ?? query.limit ?? fallbackSize, 1), 1000);
  if (query.offset !== undefined && query.page === undefined) {
    const offset = Math.max(query.offset, 0);
    return { page: Math.floor(offset / pageSize) + 1, pageSize, offset };
  }
  const page = Math.max(query.page ?? 1, 1);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** Builds pageInfo from the total and the page asked for. */
export function pageInfoOf(total: number, paging: Paging): PageInfo {
  return {
    totalRows: total, page: paging.page, pageSize: paging.pageSize,
    isFirstPage: paging.page === 1, isLastPage: paging.offset + paging.pageSize >= total,
  };
}

/** A whole list as one page (lists the spec pages but that are small). */
export function singlePage<T>(list: T[]): { list: T[]; pageInfo: PageInfo } {
  return { list, pageInfo: pageInfoOf(list.length, { page: 1, pageSize: Math.max(list.length, 1), offset: 0 }) };
}
