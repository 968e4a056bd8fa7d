import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

const id = z.string().min(1).max(64);

/**
 * Copies the hooks of tables onto their duplicates (meta, when it duplicates a
 * table or a base without `excludeHooks`): settings, filters and the signing
 * secret (receivers keep verifying with the secret they have); column ids in
 * filters and `trigger_fields` are mapped through `columns`.
 */
export const hooksCopy = defineEndpoint({
  id: 'hooksCopy', method: 'POST', path: '/internal/hooks/copy', service: 'hooks', auth: { callers: SERVICES },
  summary: 'Copy the hooks of tables onto their duplicates', tags: ['Hooks (internal)'],
  body: z.object({
    /** The base the duplicates belong to. */
    baseId: id,
    /** Source table id → duplicate table id. */
    tables: z.array(z.object({ from: id, to: id })).max(10000),
    /** Source column id → duplicate column id. */
    columns: z.record(id, id).default({}),
  }),
  response: z.object({ copied: z.number().int().min(0) }),
  example: { request: { baseId: 'pcopy', tables: [{ from: 'mold', to: 'mnew' }], columns: { cold: 'cnew' } }, response: { copied: 1 } },
});

/**
 * Deletes every hook of the given tables, with their filters, deliveries and
 * logs. Meta calls it to undo a {@link hooksCopy} whose duplicate was then not
 * committed.
 */
export const hooksDeleteOfTables = defineEndpoint({
  id: 'hooksDeleteOfTables', method: 'POST', path: '/internal/hooks/delete-of-tables', service: 'hooks', auth: { callers: SERVICES },
  summary: 'Delete the hooks of tables', tags: ['Hooks (internal)'],
  body: z.object({ tableIds: z.array(id).max(10000) }),
  response: z.object({ deleted: z.number().int().min(0) }),
});
