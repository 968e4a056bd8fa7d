import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

/**
 * `GET /internal/tables/{tableId}/records/{recordId}`: one record of a table
 * by its primary key, as the public read answers it (all columns), for other
 * services (comments checks a record exists; hooks' manual trigger reads it).
 * 404 ERR_RECORD_NOT_FOUND / ERR_TABLE_NOT_FOUND.
 */
export const readRecord = defineEndpoint({
  id: 'internalReadRecord', method: 'GET', path: '/internal/tables/{tableId}/records/{recordId}', service: 'data', auth: { callers: SERVICES },
  summary: 'Read one record of a table by primary key', tags: ['Internal: data'],
  params: z.object({ tableId: z.string().min(1).max(128), recordId: z.string().min(1).max(1024) }),
  response: z.object({ record: z.record(z.string(), z.unknown()) }),
  errors: [404],
});
