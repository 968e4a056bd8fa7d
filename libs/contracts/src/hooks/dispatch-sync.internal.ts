import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { SERVICES } from '../endpoint/access';

const row = z.record(z.string(), z.unknown());

/** Body of `POST /internal/hooks/dispatch-sync`: the RecordsChanged fields as JSON. */
export const dispatchSyncSchema = z.object({
  eventId: z.string().min(1).max(100),
  type: z.string().regex(/^records\.(after|before)\.(insert|update|delete)$/),
  operation: z.enum(['insert', 'update', 'delete', 'bulkInsert', 'bulkUpdate', 'bulkDelete', 'updateAll', 'deleteAll']),
  baseId: z.string().max(64),
  tableId: z.string().max(64),
  tableTitle: z.string().max(1024),
  user: z.object({ id: z.string(), email: z.string() }).optional(),
  rows: z.array(row),
  previousRows: z.array(row).optional(),
});

/**
 * Synchronous delivery of the table's `async: false` hooks, called by data
 * after a write commits and before it answers. `sync_hooks: false` when the
 * table has none (data then skips the call for a while). `before_hooks`:
 * whether the table has any active `before` hook (data publishes the advisory
 * `records.before.*` events only while it may).
 */
export const dispatchSync = defineEndpoint({
  id: 'internalDispatchSync', method: 'POST', path: '/internal/hooks/dispatch-sync', service: 'hooks', auth: { callers: SERVICES },
  summary: "Deliver a change's synchronous hooks now", tags: ['Internal: hooks'], body: dispatchSyncSchema,
  response: z.object({
    sync_hooks: z.boolean(),
    before_hooks: z.boolean().optional(),
    deliveries: z.array(z.object({ id: z.string(), hook_id: z.string(), status: z.string(), attempt: z.number() })),
  }),
});

/** The hooks service's internal API; `clientOf(services, hooksInternal)`. */
export const hooksInternal = { dispatchSync };
