import { z } from 'zod';
import { nameRef } from '../common/refs';

/** page/pageSize (spec) and limit/offset (NocoDB clients) as query text; meta clamps large pages. */
export const metaPageQuery = z.looseObject({
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

/** Path parameters of meta routes. */
export const baseParams = z.object({ baseId: nameRef });
export const tableParams = z.object({ tableId: nameRef });
export const columnParams = z.object({ columnId: nameRef });
export const viewParams = z.object({ viewId: nameRef });

/** The v1 meta prefix. */
export const META = '/api/v1/db/meta';
