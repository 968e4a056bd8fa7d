import { topics } from '@tabula/contracts';
import { defineConsumer } from '@tabula/events';
import type { CommentsPorts } from '../ports';

/**
 * Drops this process's cached tables and records on every `tabula.meta`
 * event (each replica has its own cache, so every process gets every event).
 * Meta keys table events by table id and base events by base id.
 */
export const cacheConsumer = defineConsumer<CommentsPorts>({
  name: 'comments.cache',
  topics: [topics.meta],
  delivery: { kind: 'per-process', prefix: 'comments-cache' },
  async handle(ports, message) {
    ports.tables.invalidate(message.key);
    if (message.type.startsWith('meta.base.')) ports.records.clear();
    else ports.records.forget(message.key);
  },
});
