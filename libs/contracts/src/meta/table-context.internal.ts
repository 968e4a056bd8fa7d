import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';

const column = z.looseObject({ id: z.string(), title: z.string(), column_name: z.string(), pk: z.boolean() });

/**
 * `GET /internal/tables/{tableId}`: a live table's context (base, source,
 * table with columns); 404 ERR_TABLE_NOT_FOUND when it or its base is gone.
 * The schema names the fields callers rely on and keeps the rest
 * (`TableContext` in internal/meta-internal.ts).
 */
export const tableContext = defineEndpoint({
  id: 'metaTableContext', method: 'GET', path: '/internal/tables/{tableId}', service: 'meta', access: 'internal',
  summary: "A table's context", tags: ['Internal'],
  params: z.object({ tableId: z.string().min(1) }),
  response: z.looseObject({
    base: z.looseObject({ id: z.string(), title: z.string(), fk_workspace_id: z.string().nullish(), deleted: z.boolean().optional() }),
    source: z.looseObject({ id: z.string() }),
    table: z.looseObject({ id: z.string(), base_id: z.string(), source_id: z.string(), title: z.string(), columns: z.array(column) }),
  }),
  errors: [404],
});
