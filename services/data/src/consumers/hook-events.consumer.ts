import { topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { DataPorts } from '../ports';

/**
 * Drops the cached sync-hook and before-hook answers of a table on
 * `tabula.hooks` events (a hook of it was created, changed or deleted). Every
 * process keeps its own answers, so every process gets every event; the key is
 * the table id (no key: every answer goes).
 */
export const hookEventsConsumer = defineConsumer<Pick<DataPorts, 'bus' | 'syncHooks'>>({
  name: 'data.hook-events',
  topics: [topics.hooks],
  delivery: { kind: 'per-process', prefix: 'data-hooks' },
  async handle({ syncHooks }, message) {
    syncHooks.invalidate(message.key || undefined);
  },
});
