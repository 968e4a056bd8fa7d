import { topics } from '@tabula/contracts';
import type { EventMessage } from '@tabula/events';
import type { Worker } from '@tabula/runtime';
import type { HooksPorts } from '../ports';
import { decodeRecordsEvent } from '../domain/records-event';
import { HOOKS_CONSUMER, ingestEvent } from '../domain/ingest-event';

/**
 * Consumes `tabula.records` in the fixed group `hooks` (replicas share the
 * work; every event is handled by one of them, idempotently on its id).
 */
export async function startRecordsConsumer(ports: HooksPorts): Promise<Worker> {
  const subscription = await ports.bus.subscribe({
    group: HOOKS_CONSUMER,
    topics: [topics.records],
    handler: async (message: EventMessage) => {
      const evt = decodeRecordsEvent(message.payload, message.id);
      if (evt) await ingestEvent(ports, evt);
    },
  });
  return { stop: () => subscription.close() };
}
