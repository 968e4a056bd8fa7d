import { z } from 'zod';
import type { HooksPorts } from '../ports';
import { claimDue, deliveriesOfEvent, type DeliveryRow } from '../repositories/delivery.repository';
import { processDelivery } from '../delivery/process-delivery';
import { claimerOf } from '../delivery/delivery-worker';
import type { ClaimedDelivery } from '../adapters/wake';
import { hooksFor, ingestEvent } from './ingest-event';
import type { EventOperation } from './payload-builder';
import { dispatchSyncSchema } from '@tabula/contracts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Not attempted yet and not claimed: a delivery of the event nobody took. */
const untaken = (d: DeliveryRow) => d.status === 'pending' && d.attempt === 0;

/**
 * Delivers the `async: false` hooks of one change before answering (bounded by
 * their timeout). Ingests the event once (the bus copy of it is then a
 * duplicate): this event's sync deliveries are inserted already claimed by
 * this call and sent inline, so neither the worker nor its poll can take them
 * in between; the async ones go to the worker. When the bus copy was ingested
 * first, its sync deliveries belong to whoever claims them: this call claims
 * the untaken ones and waits for the ones the worker took, until each has had
 * an attempt.
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
  const syncIds = sync.map((h) => h.id);
  let mine: ClaimedDelivery[] = [];
  await ingestEvent(ports, { ...input, event, operation: op, writtenAt: Date.now() }, {
    handOff: (hook) => hook.async, claim: (hook) => !hook.async, onClaimed: (claimed) => { mine = claimed; },
  });
  const deadline = Date.now() + Math.max(...sync.map((h) => h.timeout)) + 1000;
  await Promise.all(mine.map((c) => processDelivery(ports, c.delivery, { hook: c.hook, eventAt: c.eventAt })));
  let current: DeliveryRow[] = await deliveriesOfEvent(ports.db, input.eventId, syncIds);
  while (Date.now() < deadline) {
    const ids = current.filter(untaken).map((d) => d.id);
    const claimed = ids.length ? await claimDue(ports.db, ids.length, claimerOf(ports), ids) : [];
    if (claimed.length) await Promise.all(claimed.map((d) => processDelivery(ports, d)));
    else if (current.some((d) => d.status === 'delivering' || untaken(d))) await sleep(50);
    else break;
    current = await deliveriesOfEvent(ports.db, input.eventId, syncIds);
  }
  return { sync_hooks: true, before_hooks: beforeHooks, deliveries: current.map((d) => ({ id: d.id, hook_id: d.hook_id, status: d.status, attempt: d.attempt })) };
}
