import { ColumnChangedSchema, decodeEvent, topics } from '@tabula/contracts';
import { defineConsumer, type EventMessage } from '@tabula/events';
import type { DataPorts } from '../ports';
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
 * every event (each has its own cache). Meta keys table/column/view events by
 * table id and base events by base id, so the key alone says what to drop,
 * whatever the payload revision; tables whose links reach the changed one go
 * with it (their `dependsOn`), and a relation column's event also drops its
 * related and junction tables. A deleted table's `nc_order` sequence is
 * dropped as well (idempotent: every process may try).
 */
export const metaCacheConsumer = defineConsumer<Pick<DataPorts, 'bus' | 'tables' | 'dataDb'>>({
  name: 'data.meta-cache',
  topics: [topics.meta],
  delivery: { kind: 'per-process', prefix: 'data-cache' },
  async handle({ tables, dataDb }, message) {
    tables.baseRefs.clear();
    if (!message.key) { tables.cache.clear(); return; }
    tables.cache.invalidate({ tableId: message.key, baseId: message.key });
    for (const tableId of relatedTablesOf(message)) tables.cache.invalidate({ tableId });
    if (message.type === 'meta.table.deleted') await dropOrderSequence(dataDb, message.key).catch(() => undefined);
  },
});
