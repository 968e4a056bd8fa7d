import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

/**
 * `POST /internal/tables/{tableId}/sync-hooks-changed`: the hooks service
 * tells data that a table's hooks changed, before it answers the change, so
 * data's cached "this table has no sync hook" answer goes at once (a sync hook
 * created just now is honoured by the very next write). Every other data
 * replica learns it from the `hooks.hook.*` event (bus latency).
 */
export const syncHooksChanged = defineEndpoint({
  id: 'internalSyncHooksChanged', method: 'POST', path: '/internal/tables/{tableId}/sync-hooks-changed', service: 'data', auth: { callers: SERVICES },
  summary: "Drop data's cached sync-hook answers of a table", tags: ['Internal: data'],
  params: z.object({ tableId: z.string().min(1).max(128) }),
  response: z.object({ ok: z.literal(true) }),
});
