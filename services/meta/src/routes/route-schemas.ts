import { z } from 'zod';

/** An id or name in a path. */
export const ref = z.string().min(1).max(255);

/** page/pageSize (spec) and limit/offset (NocoDB clients) as query text. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
  offset: z.coerce.number().int().min(0).optional(),
}).passthrough();

/** Path of a route under a base. */
export const baseParams = z.object({ baseId: ref });
export const tableParams = z.object({ tableId: ref });
export const columnParams = z.object({ columnId: ref });
export const viewParams = z.object({ viewId: ref });

/** The v1 meta prefix. */
export const META = '/api/v1/db/meta';
