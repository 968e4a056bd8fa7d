import { z } from 'zod';
import { nameRef } from '../common/refs';
import { pagingQuery } from '../common/paging';

/** page/pageSize (spec) and limit/offset (NocoDB clients): the one paging rule of every list. */
export const metaPageQuery = pagingQuery;

/** Path parameters of meta routes. */
export const baseParams = z.object({ baseId: nameRef });
export const tableParams = z.object({ tableId: nameRef });
export const columnParams = z.object({ columnId: nameRef });
export const viewParams = z.object({ viewId: nameRef });

/** The v1 meta prefix. */
export const META = '/api/v1/db/meta';
