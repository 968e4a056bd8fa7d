import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { enqueueEvent, injectTraceContext } from '@tabula/events';
import type { OutboxHead } from '../repositories/insert-with-outbox.repository';
import { RecordOperation, encodeRecordsChanged, timestampNow, topics } from '@tabula/contracts';
import type { Principal } from '@tabula/auth';
import type { EventBus } from '@tabula/events';
import type { TableHandle } from '../context/table-handle';
import { recordsJson, type ApiRecord } from '../presenters/record.presenter';

/** A committed change and the id its outbox event carries. */
export interface CommittedChange {
  change: RecordsChange;
  eventId: string;
  type: string;
}

/** The schema holding the data service's outbox. */
export const DATA_SCHEMA = 'data';

/** NocoDB's operation names. */
export type RecordOp = 'insert' | 'update' | 'delete' | 'bulkInsert' | 'bulkUpdate' | 'bulkDelete' | 'updateAll' | 'deleteAll';

const OPERATIONS: Record<RecordOp, RecordOperation> = {
  insert: RecordOperation.INSERT, update: RecordOperation.UPDATE, delete: RecordOperation.DELETE,
  bulkInsert: RecordOperation.BULK_INSERT, bulkUpdate: RecordOperation.BULK_UPDATE, bulkDelete: RecordOperation.BULK_DELETE,
  updateAll: RecordOperation.UPDATE_ALL, deleteAll: RecordOperation.DELETE_ALL,
};

const KIND: Record<RecordOp, 'insert' | 'update' | 'delete'> = {
  insert: 'insert', bulkInsert: 'insert', update: 'update', bulkUpdate: 'update', updateAll: 'update',
  delete: 'delete', bulkDelete: 'delete', deleteAll: 'delete',
};

/** One records change, before it is encoded. */
export interface RecordsChange {
  op: RecordOp;
  rows: ApiRecord[];
  previousRows?: ApiRecord[];
  principal?: Principal;
  /** The table the rows belong to when not the write's own table (the other side of a link). */
  table?: TableHandle;
  /** How many rows, when known without reading `rows` (a lazily parsed one-statement insert: counting must not parse). */
  rowCount?: number;
}

function message(handle: TableHandle, stage: 'before' | 'after', change: RecordsChange, eventId: string = randomUUID(), withRows = true) {
  const type = `records.${stage}.${KIND[change.op]}`;
  const table = handle.model.context.table;
  const p = change.principal;
  const user = p?.kind === 'user' ? { id: p.id, email: p.email ?? '', tokenId: p.via === 'api-token' ? p.tokenId ?? '' : '' } : undefined;
  const payload = encodeRecordsChanged({
    eventId, type, operation: OPERATIONS[change.op], baseId: handle.baseId, sourceId: handle.source.id,
    tableId: handle.tableId, tableTitle: table.title, user, rowsJson: withRows ? recordsJson(change.rows) : '',
    previousRowsJson: change.previousRows ? JSON.stringify(change.previousRows) : '', occurredAt: timestampNow(),
  });
  return { id: eventId, topic: topics.records, key: handle.tableId, type, payload };
}

/**
 * `records.after.*` into the outbox, inside the transaction of the write, so an
 * event exists exactly when the write committed (the relay publishes it).
 */
export async function enqueueRecordsChanged(trx: Knex, handle: TableHandle, change: RecordsChange): Promise<CommittedChange> {
  const event = message(handle, 'after', change);
  await enqueueEvent(trx, DATA_SCHEMA, event);
  return { change, eventId: event.id, type: event.type };
}

/** Protobuf tag of `RecordsChanged.rows_json` (field 10, length-delimited). */
const ROWS_JSON_TAG = (10 << 3) | 2;

/**
 * The outbox row of a `records.after.*` event whose rows the database appends
 * itself (insert-with-outbox.repository.ts): everything but `rows_json`.
 */
export function afterEventHead(handle: TableHandle, change: Omit<RecordsChange, 'rows'>): OutboxHead {
  // Object.assign, not `{ ...change, rows: [] }` (a spread with a new property: V8's slow path, docs/benchmarks.md).
  const event = message(handle, 'after', Object.assign({}, change, { rows: [] }), randomUUID(), false);
  return {
    schema: DATA_SCHEMA, id: event.id, topic: event.topic, key: event.key, type: event.type,
    payloadPrefix: event.payload, rowsTag: ROWS_JSON_TAG, headers: JSON.stringify(injectTraceContext({})),
  };
}

/**
 * `records.before.*`: published straight to the bus just before the write.
 * Advisory only: the write may still fail or roll back after it, and a bus
 * failure does not stop the write (it is logged).
 */
export async function publishBefore(bus: EventBus, logger: { warn(o: object, m?: string): void }, handle: TableHandle, change: RecordsChange): Promise<void> {
  try {
    await bus.publish([message(handle, 'before', change)]);
  } catch (err) {
    logger.warn({ err, table: handle.tableId }, 'records.before event not published');
  }
}
