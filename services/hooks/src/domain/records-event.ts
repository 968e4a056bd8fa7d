import { RecordOperation, decodeRecordsChanged } from '@tabula/contracts';
import type { EventOperation } from './payload-builder';

type Row = Record<string, unknown>;

/** A records change as the hooks service works with it (bus event or dispatch-sync call). */
export interface RecordsEvent {
  eventId: string;
  /** after, before or manual. */
  event: string;
  operation: EventOperation;
  baseId: string;
  tableId: string;
  tableTitle: string;
  user?: { id: string; email: string };
  rows: Row[];
  previousRows?: Row[];
  /** Trace headers of the event (bus copies): the deliveries join that trace. */
  traceContext?: Record<string, string> | null;
  /** When the event was written (epoch ms; the outbox time of bus copies). */
  writtenAt?: number;
}

const OPERATIONS: Partial<Record<RecordOperation, EventOperation>> = {
  [RecordOperation.INSERT]: 'insert', [RecordOperation.UPDATE]: 'update', [RecordOperation.DELETE]: 'delete',
  [RecordOperation.BULK_INSERT]: 'bulkInsert', [RecordOperation.BULK_UPDATE]: 'bulkUpdate', [RecordOperation.BULK_DELETE]: 'bulkDelete',
  [RecordOperation.UPDATE_ALL]: 'updateAll', [RecordOperation.DELETE_ALL]: 'deleteAll',
};

function parseRows(json: string): Row[] {
  if (!json) return [];
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? (parsed as Row[]) : [];
}

/** Decodes a `RecordsChanged` message; null for operations hooks do not know. */
export function decodeRecordsEvent(bytes: Uint8Array, fallbackId: string): RecordsEvent | null {
  const msg = decodeRecordsChanged(bytes);
  const operation = OPERATIONS[msg.operation];
  const stage = msg.type.split('.')[1];
  if (!operation || (stage !== 'after' && stage !== 'before')) return null;
  return {
    eventId: msg.eventId || fallbackId, event: stage, operation, baseId: msg.baseId, tableId: msg.tableId, tableTitle: msg.tableTitle,
    user: msg.user ? { id: msg.user.id, email: msg.user.email } : undefined,
    rows: parseRows(msg.rowsJson), previousRows: msg.previousRowsJson ? parseRows(msg.previousRowsJson) : undefined,
  };
}
