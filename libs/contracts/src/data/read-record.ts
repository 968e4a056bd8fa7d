import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

/**
 * `GET /internal/data/bases/{baseId}/tables/{tableId}/records/{rowId}`: does
 * this record exist? Answers the record's canonical id (the primary key as the
 * records API writes it, composite parts joined with `___`); 404
 * ERR_RECORD_NOT_FOUND / ERR_TABLE_NOT_FOUND / ERR_BASE_NOT_FOUND otherwise.
 * Services only (comments asks it before accepting a comment).
 */
export const readRecord = defineEndpoint({
  id: 'dataReadRecord', method: 'GET', path: '/internal/data/bases/{baseId}/tables/{tableId}/records/{rowId}',
  service: 'data', auth: { callers: SERVICES }, summary: 'Whether a record exists (its canonical id)', tags: ['Internal'],
  params: z.object({ baseId: z.string().min(1), tableId: z.string().min(1), rowId: z.string().min(1) }),
  response: z.object({ base_id: z.string(), table_id: z.string(), row_id: z.string() }),
  errors: [404],
});
