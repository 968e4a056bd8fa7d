import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { ColumnChangedSchema, decodeEvent, topics } from '@tabula/contracts';
import type { EventBus, EventMessage } from '@tabula/events';
import type { Worker } from '@tabula/runtime';
import type { Knex } from 'knex';
import type { TableResolver } from '../context/table-handle';
import { dropOrderSequence } from '../repositories/order-sequence';

/**
 * The tables a column event also concerns: the related and junction tables of
 * a link, lookup or rollup column (its relation metadata). Undecodable
 * payloads name none (the key still drops the column's own table).
 */
export function relatedTablesOf(message: Pick<EventMessage, 'type' | 'payload'>): string[] {
  if (!message.type.startsWith('meta.column.') || !message.payload?.length) return [];
  try {
    const relation = decodeEvent(ColumnChangedSchema, message.payload).relation;
    return [relation?.relatedTableId, relation?.mmTableId].filter((id): id is string => !!id);
  } catch {
    return [];
  }
}

/**
 * Drops cached table contexts on `tabula.meta` events. Every process must see
 * every event (each has its own cache), so the consumer group is unique per
 * process. Meta keys table/column/view events by table id and base events by
 * base id, so the key alone says what to drop, whatever the payload revision;
 * tables whose links reach the changed one go with it (their `dependsOn`), and
 * a relation column's event also drops its related and junction tables.
 * A deleted table's `nc_order` sequence is dropped as well.
 */
export async function startMetaCacheConsumer(bus: EventBus, tables: TableResolver, dataDb?: Knex): Promise<Worker> {
  const group = `data-cache-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const subscription = await bus.subscribe({
    group,
    topics: [topics.meta],
    fromBeginning: false,
    ephemeral: true,
    handler: async (message: EventMessage) => {
      tables.baseRefs.clear();
      if (!message.key) { tables.cache.clear(); return; }
      tables.cache.invalidate({ tableId: message.key, baseId: message.key });
      for (const tableId of relatedTablesOf(message)) tables.cache.invalidate({ tableId });
      // A deleted table's nc_order sequence goes too (idempotent: every process may try).
      if (dataDb && message.type === 'meta.table.deleted') await dropOrderSequence(dataDb, message.key).catch(() => undefined);
    },
  });
  return { stop: () => subscription.close() };
}
