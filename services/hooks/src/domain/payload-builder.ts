import { randomUUID } from 'node:crypto';

/** NocoDB's operation names as the data service sends them, plus the manual `trigger`. */
export type EventOperation =
  | 'insert' | 'update' | 'delete' | 'bulkInsert' | 'bulkUpdate' | 'bulkDelete' | 'updateAll' | 'deleteAll' | 'trigger';

/** Payload versions. */
export type HookVersion = 'v1' | 'v2' | 'v3';

type Row = Record<string, unknown>;

/** What a payload is built from: one records change of one table. */
export interface ChangeFacts {
  event: string;
  operation: EventOperation;
  baseId: string;
  tableId: string;
  tableTitle: string;
  rows: Row[];
  previousRows?: Row[];
}

const PLAIN: Record<EventOperation, string> = {
  insert: 'insert', bulkInsert: 'insert', update: 'update', bulkUpdate: 'update', updateAll: 'update',
  delete: 'delete', bulkDelete: 'delete', deleteAll: 'delete', trigger: 'trigger',
};
const V2_NAME: Record<EventOperation, string> = {
  insert: 'insert', bulkInsert: 'bulkInsert', update: 'update', bulkUpdate: 'bulkUpdate', updateAll: 'bulkUpdate',
  delete: 'delete', bulkDelete: 'bulkDelete', deleteAll: 'bulkDelete', trigger: 'trigger',
};

/** The plain operation (v3 names; bulk folded in). */
export function plainOperation(op: EventOperation): string {
  return PLAIN[op];
}

/** The v1/v2 operation name (updateAll/deleteAll count as bulk). */
export function v2Operation(op: EventOperation): string {
  return V2_NAME[op];
}

/** True for operations that carry many rows. */
export function isBulk(op: EventOperation): boolean {
  return V2_NAME[op].startsWith('bulk');
}

/** A row without `nc_order` (compat-notes: removed from payload rows). */
export function cleanRow(row: Row): Row {
  const { nc_order: _order, ...rest } = row;
  return rest;
}

/**
 * The body of a hook call (compat-notes "Hooks"): v1 is the record itself (an
 * array for bulk operations); v2/v3 wrap rows with type, id, base and table, v2
 * keeping bulk names in `type` (plus `rows_inserted`), v3 folding them in.
 */
export function buildPayload(version: HookVersion, facts: ChangeFacts): unknown {
  const rows = facts.rows.map(cleanRow);
  const previous = facts.previousRows?.map(cleanRow);
  if (version === 'v1') return isBulk(facts.operation) ? rows : rows[0] ?? {};
  const op = version === 'v2' ? V2_NAME[facts.operation] : PLAIN[facts.operation];
  const data: Row = { table_id: facts.tableId, table_name: facts.tableTitle };
  if (previous && PLAIN[facts.operation] === 'update') data.previous_rows = previous;
  data.rows = rows;
  if (version === 'v2' && op === 'bulkInsert') data.rows_inserted = rows.length;
  return { type: `records.${facts.event}.${op}`, id: randomUUID(), base_id: facts.baseId, version, data };
}
