import { pagingQuery } from '../common/paging';

/** Auth's list query: the one paging rule of every list (`page`/`pageSize` or `limit`/`offset`). */
export const authPageQuery = pagingQuery;
