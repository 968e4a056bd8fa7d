import type { ApiRecord } from '../presenters/record.presenter';
import { insertRows, uniformKeys } from '../repositories/record-insert.repository';
import { insertWithOutbox } from '../repositories/insert-with-outbox.repository';
import { insertOneWithOutbox } from '../repositories/insert-batcher';
import { recordJsonSql } from '../repositories/record-json.sql';
import type { DbRow } from '../model/record-writer';
import { assignOrder, orderSequenceOf, prepareRows, userIdOf } from './row-preparer';
import { checkUnique } from './unique-check';
import { keyOf, readBack } from './record-reader';
import { presentRecord, recordsJson, rememberJson } from '../presenters/record.presenter';
import { runOneStatementWrite, runWrite } from './write-runner';
import { openTable, type TableInScope } from './table-access';
import { checkBulkSize } from './bulk/bulk-limits';
import type { DataPorts } from '../ports';
import type { TableHandle } from '../context/table-handle';
import { formulaPlanOf } from '../model/formula-columns';
import { claimAttachments } from '../attachments/attachment-claims';
import { withUserIds } from '../values/user-cells';
import { linkPlanOf } from '../model/link-columns';
import { relationPlanOf } from '../model/relation-columns';
import { applyLinkFields, checkRequiredLinks, linkFieldsOf, type LinkFields } from './links/link-fields';
import { atIndex } from '../values/value-errors';
import { afterEventHead, type RecordsChange } from '../events/records-event.producer';

/** Options of {@link insertRecords}. */
export interface InsertOptions {
  /** Bulk: errors name the record index; the event is `bulkInsert`. */
  bulk: boolean;
  /** Row id to insert before (nc_order). */
  before?: string;
}

/** True when the table has columns computed by SELECT (formulas, links, lookups, rollups). */
function hasFormulas(model: TableHandle['model']): boolean {
  return model.outputColumns.some((c) => formulaPlanOf(c) || linkPlanOf(c) || relationPlanOf(c));
}

/**
 * POST .../{tableName} and the bulk insert: validates every body first, then
 * inserts all rows and enqueues one `records.after.insert` event atomically.
 * Default pg sources with plain columns take one statement for both (see
 * insertWithOutbox); otherwise one transaction inserts all rows (one statement
 * RETURNING the stored rows on pg/sqlite; re-read on mysql) and the event.
 */
export async function insertRecords(ports: DataPorts, scope: TableInScope, bodies: unknown[], options: InsertOptions): Promise<ApiRecord[]> {
  return (await insertRecordsAs(ports, scope, bodies, options)).records();
}

/** Inserted records as objects and as JSON text, each made on first use (from the other). */
export interface InsertedRecords {
  records(): ApiRecord[];
  json(): string;
  /** The JSON text in pieces that concatenate to {@link json} (no large string is made for them). */
  jsonPieces(): string[];
}

function fromRecords(records: ApiRecord[]): InsertedRecords {
  return { records: () => records, json: () => recordsJson(records), jsonPieces: () => [recordsJson(records)] };
}

/**
 * {@link insertRecords} answering both forms lazily: the bulk route sends the
 * database's JSON text as is, and nothing parses it unless a sync hook needs the rows.
 */
export async function insertRecordsAs(ports: DataPorts, scope: TableInScope, given: unknown[], options: InsertOptions): Promise<InsertedRecords> {
  if (options.bulk) checkBulkSize(ports, given);
  const { principal } = scope;
  const { handle } = openTable(scope);
  const bodies = await withUserIds(ports, handle, given, options.bulk);
  const rows = prepareRows(handle, bodies, { mode: 'insert', userId: userIdOf(principal) }, options.bulk);
  await claimAttachments(ports, handle, bodies, principal);
  if (!rows.length) return fromRecords([]);
  const op = options.bulk ? 'bulkInsert' : 'insert';
  const links = bodies.map((b, i) => {
    const fields = linkFieldsOf(handle, b);
    try { checkRequiredLinks(handle, fields); } catch (err) { throw options.bulk ? atIndex(err, i) : err; }
    return fields;
  });
  const sequence = await orderSequenceOf(handle);
  const fast = oneStatementPlan(handle, rows, links, options, sequence);
  if (fast) {
    return runOneStatementWrite(ports, handle, { op, rows: bodies as ApiRecord[], principal }, async () => {
      // Outside a transaction, like the database constraint it mirrors (which still guards races).
      await checkUnique(handle.source.knex, handle, rows, [], options.bulk);
      const event = afterEventHead(handle, { op, principal });
      // A single insert shares its statement with the table's other single inserts of this turn (insert-batcher.ts).
      const plan = Object.assign({}, fast, { event }); // not a spread with a new property (V8's slow path)
      const pieces = rows.length === 1 && !options.bulk ? [await insertOneWithOutbox(handle.source.knex, handle, plan)] : await insertWithOutbox(handle.source.knex, handle, plan);
      let text: string | undefined;
      const json = () => (text ??= pieces.join(''));
      let parsed: ApiRecord[] | undefined;
      const records = () => (parsed ??= rememberJson(JSON.parse(json()) as ApiRecord[], json()));
      // All or nothing: the statement inserted every row (counting them must not parse the JSON).
      const change: RecordsChange = { op, principal, rowCount: rows.length, get rows() { return records(); } };
      return { result: { records, json, jsonPieces: () => pieces }, committed: [{ change, eventId: event.id, type: event.type }] };
    });
  }
  return fromRecords(await runWrite(ports, handle, { op, rows: bodies as ApiRecord[], principal }, async (trx) => {
    await checkUnique(trx, handle, rows, [], options.bulk);
    await assignOrder(trx, handle, rows, options.before, sequence);
    const stored = await insertRows(trx, handle, rows, handle.model.outputColumns);
    for (const [i, fields] of links.entries()) {
      if (fields.length) await applyLinkFields(ports, trx, Object.values(keyOf(handle, stored[i]))[0], fields, false);
    }
    // Formula and link values are computed by SELECT: re-read when the table has any (no RETURNING for them).
    const records = handle.source.dialect === 'mysql2' || hasFormulas(handle.model)
      ? await readBack(trx, handle, stored.map((r) => keyOf(handle, r)))
      : stored.map((r) => presentRecord(handle.model.outputColumns, r));
    return { result: records, change: { op, rows: records, principal } };
  }));
}

/**
 * The one-statement plan when it applies: a default pg source with an
 * nc_order sequence, no `before`, no link fields, no computed columns, rows
 * setting the same columns, and every output column formattable in SQL.
 */
function oneStatementPlan(handle: TableHandle, rows: DbRow[], links: LinkFields[][], options: InsertOptions, sequence: string | undefined) {
  const orderColumn = handle.model.orderColumn?.column_name;
  if (!sequence || !orderColumn || options.before || links.some((l) => l.length) || hasFormulas(handle.model)) return undefined;
  const keys = uniformKeys(rows);
  const recordJson = recordJsonSql(handle.model.outputColumns);
  if (!keys || !recordJson) return undefined;
  return { rows, keys, orderSequence: sequence, orderColumn, recordJson };
}
