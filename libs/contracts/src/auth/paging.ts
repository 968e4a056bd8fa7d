import { z } from 'zod';

/** Auth's list query: NocoDB's `page`/`pageSize` or `limit`/`offset` (at most 1000 per page, larger is 400). */
export const authPageQuery = z.looseObject({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
