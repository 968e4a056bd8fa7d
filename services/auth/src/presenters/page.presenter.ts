/** Paging query of list endpoints (NocoDB: `page`/`pageSize`, or `limit`/`offset`). */
export interface PageInput {
  limit: number;
  offset: number;
}

/** NocoDB's `{ list, pageInfo }`. */
export function presentPage<T>(list: T[], total: number, page: PageInput) {
  const pageSize = page.limit;
  const current = Math.floor(page.offset / pageSize) + 1;
  return {
    list,
    pageInfo: {
      totalRows: total, page: current, pageSize,
      isFirstPage: current === 1, isLastPage: page.offset + list.length >= total,
    },
  };
}
