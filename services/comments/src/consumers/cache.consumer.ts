import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { topics } from '@tabula/contracts';
import type { Worker } from '@tabula/runtime';
import type { CommentsPorts } from '../ports';

/**
 * Drops this process's cached tables and records on every `tabula.meta`
 * event (each replica has its own cache, so the group is unique per process).
 * Meta keys table events by table id and base events by base id.
 */
export async function startCacheConsumer(ports: CommentsPorts): Promise<Worker> {
  const subscription = await ports.bus.subscribe({
    group: `comments-cache-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    topics: [topics.meta],
    fromBeginning: false,
    ephemeral: true,
    handler: async (message) => {
      ports.tables.invalidate(message.key);
      if (message.type.startsWith('meta.base.')) ports.records.clear();
      else ports.records.forget(message.key);
    },
  });
  return { stop: () => subscription.close() };
}
