import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { topics } from '@tabula/contracts';
import type { EventBus, EventMessage } from '@tabula/events';
import type { Worker } from '@tabula/runtime';
import type { SyncHooksClient } from '../adapters/sync-hooks.client';

/**
 * Drops the cached "has no sync hooks" flags of a table on `tabula.hooks`
 * events (a hook of it was created, changed or deleted). Every process keeps
 * its own flags, so the consumer group is unique per process; the key is the
 * table id (no key: every flag goes).
 */
export async function startHookFlagsConsumer(bus: EventBus, syncHooks: SyncHooksClient): Promise<Worker> {
  const subscription = await bus.subscribe({
    group: `data-hooks-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    topics: [topics.hooks],
    fromBeginning: false,
    ephemeral: true,
    handler: async (message: EventMessage) => { syncHooks.invalidate(message.key || undefined); },
  });
  return { stop: () => subscription.close() };
}
