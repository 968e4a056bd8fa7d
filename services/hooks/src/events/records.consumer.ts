import { topics } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import type { Worker } from '@tabula/runtime';
import type { HooksPorts } from '../ports';
import { decodeRecordsEvent } from '../domain/records-event';
import { HOOKS_CONSUMER, ingestEvent } from '../domain/ingest-event';

/**
 * Consumes `tabula.records` in the fixed group `hooks` (replicas share the
 * work; every event is handled by one of them, idempotently on its id),
 * without per-table order (the fault suite found one busy table's events
 * falling ever further behind its writes when handled one at a time).
 */
export async function startRecordsConsumer(ports: HooksPorts): Promise<Worker> {
  const subscription = await ports.bus.subscribe({
    group: HOOKS_CONSUMER,
    topics: [topics.records],
    // Ingestion is idempotent per event id and deliveries are sent concurrently anyway: key
    // order would only serialise one busy table's events (one at a time, several round trips each).
    ordered: false,
    handler: async (message: EventMessage) => {
      const evt = decodeRecordsEvent(message.payload, message.id);
      if (evt) await ingestEvent(ports, evt);
    },
  });
  return { stop: () => subscription.close() };
}
