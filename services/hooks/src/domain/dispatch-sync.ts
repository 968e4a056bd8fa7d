import { z } from 'zod';
import type { HooksPorts } from '../ports';
import { claimDue, deliveriesOfEvent, type DeliveryRow } from '../repositories/delivery.repository';
import { processDelivery } from '../delivery/process-delivery';
import { hooksFor, ingestEvent } from './ingest-event';
import type { EventOperation } from './payload-builder';
import { dispatchSyncSchema } from '@tabula/contracts';


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Delivers the `async: false` hooks of one change before answering (bounded by
 * their timeout). Ingests the event once (the bus copy of it is then a
 * duplicate), sends this event's sync deliveries inline, and waits for any a
 * worker claimed first. Async hooks of the event are left to the worker.
 */
export async function dispatchSync(ports: HooksPorts, input: z.infer<typeof dispatchSyncSchema>) {
  const event = input.type.split('.')[1];
  const op = input.operation as EventOperation;
  const table = await ports.hookCache.get(input.tableId);
  const sync = hooksFor(table, { event, operation: op }).filter((h) => !h.async);
  // Data publishes records.before.* only while the table may have a before hook.
  const beforeHooks = table.hooks.some((h) => h.event === 'before');
  // No sync hook: the bus copy of the event does everything; data remembers the answer briefly.
  if (!sync.length) return { sync_hooks: false, before_hooks: beforeHooks, deliveries: [] };
  // this call sends the sync deliveries itself; the async ones go to the worker
  await ingestEvent(ports, { ...input, event, operation: op, writtenAt: Date.now() }, { handOff: (hook) => hook.async });
  const deadline = Date.now() + Math.max(...sync.map((h) => h.timeout)) + 1000;
  const ids = (await deliveriesOfEvent(ports.db, input.eventId, sync.map((h) => h.id))).map((d) => d.id);
  const claimed = await claimDue(ports.db, ids.length, ids);
  await Promise.all(claimed.map((d) => processDelivery(ports, d)));
  let current: DeliveryRow[] = await deliveriesOfEvent(ports.db, input.eventId, sync.map((h) => h.id));
  while (current.some((d) => d.status === 'delivering') && Date.now() < deadline) {
    await sleep(50);
    current = await deliveriesOfEvent(ports.db, input.eventId, sync.map((h) => h.id));
  }
  return { sync_hooks: true, before_hooks: beforeHooks, deliveries: current.map((d) => ({ id: d.id, hook_id: d.hook_id, status: d.status, attempt: d.attempt })) };
}
