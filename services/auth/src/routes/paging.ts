import type { z } from 'zod';
import type { authPageQuery } from '@tabula/contracts';
import type { PageInput } from '../presenters/page.presenter';

/** Resolves the list query to limit/offset (default 25 per page). */
export function pageOf(query: z.infer<typeof authPageQuery>): PageInput {
  const limit = query.pageSize ?? query.limit ?? 25;
  const offset = query.offset ?? ((query.page ?? 1) - 1) * limit;
  return { limit, offset };
}
