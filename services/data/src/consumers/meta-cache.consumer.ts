import { topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { DataPorts } from '../ports';

/**
 * Drops cached table contexts on `tabula.meta` events. Every process must see
 * every event (each has its own cache). Meta keys table/column/view events by
 * table id and base events by base id, so the key alone says what to drop,
 * whatever the payload revision.
 */
export const metaCacheConsumer = defineConsumer<Pick<DataPorts, 'bus' | 'tables'>>({
  name: 'data.meta-cache',
  topics: [topics.meta],
  delivery: { kind: 'per-process', prefix: 'data-cache' },
  async handle({ tables }, message) {
    tables.baseRefs.clear();
    if (message.key) tables.cache.invalidate({ tableId: message.key, baseId: message.key });
    else tables.cache.clear();
  },
});
