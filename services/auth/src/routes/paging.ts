import { z } from 'zod';
import type { PageInput } from '../presenters/page.presenter';

/** List query: NocoDB's `page`/`pageSize` or `limit`/`offset` (max 1000 per page). */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(1000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
}).passthrough();

/** Resolves the query to limit/offset (default 25 per page). */
export function pageOf(query: z.infer<typeof pageQuery>): PageInput {
  const limit = query.pageSize ?? query.limit ?? 25;
  const offset = query.offset ?? ((query.page ?? 1) - 1) * limit;
  return { limit, offset };
}
