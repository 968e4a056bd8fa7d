import { z } from 'zod';

/** An id or reference in a path. */
export const ref = z.string().min(1).max(128);

/** Paging query (page/pageSize or limit/offset). */
export const listQuery = z.object({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
  offset: z.coerce.number().int().min(0).optional(),
}).passthrough();
