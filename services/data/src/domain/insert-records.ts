import type { Principal } from '@tabula/auth';
import type { ApiRecord } from '../presenters/record.presenter';
import { insertRows } from '../repositories/record-insert.repository';
import { assignOrder, prepareRows, userIdOf } from './row-preparer';
import { checkUnique } from './unique-check';
import { keyOf, readBack } from './record-reader';
import { presentRecord } from '../presenters/record.presenter';
import { runWrite } from './write-runner';
import { openTable, type TableRef } from './table-access';
import { checkBulkSize } from './bulk/bulk-limits';
import type { DataPorts } from '../ports';
import type { TableHandle } from '../context/table-handle';
import { formulaPlanOf } from '../model/formula-columns';
import { claimAttachments } from '../attachments/attachment-claims';
import { linkPlanOf } from '../model/link-columns';
import { relationPlanOf } from '../model/relation-columns';
import { applyLinkFields, checkRequiredLinks, linkFieldsOf } from './links/link-fields';
import { atIndex } from '../values/value-errors';

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
 * one transaction inserts all rows (one statement RETURNING the stored rows
 * on pg/sqlite; re-read on mysql) and enqueues one `records.after.insert` event.
 */
export async function insertRecords(ports: DataPorts, principal: Principal, ref: TableRef, bodies: unknown[], options: InsertOptions): Promise<ApiRecord[]> {
  if (options.bulk) checkBulkSize(ports, bodies);
  const { handle } = await openTable(ports, principal, ref, 'data.write');
  const rows = prepareRows(handle, bodies, { mode: 'insert', userId: userIdOf(principal) }, options.bulk);
  await claimAttachments(ports, handle, bodies);
  if (!rows.length) return [];
  const op = options.bulk ? 'bulkInsert' : 'insert';
  const links = bodies.map((b, i) => {
    const fields = linkFieldsOf(handle, b);
    try { checkRequiredLinks(handle, fields); } catch (err) { throw options.bulk ? atIndex(err, i) : err; }
    return fields;
  });
  return runWrite(ports, handle, { op, rows: bodies as ApiRecord[], principal }, async (trx) => {
    await checkUnique(trx, handle, rows, [], options.bulk);
    await assignOrder(trx, handle, rows, options.before);
    const stored = await insertRows(trx, handle, rows, handle.model.outputColumns);
    for (const [i, fields] of links.entries()) {
      if (fields.length) await applyLinkFields(ports, trx, Object.values(keyOf(handle, stored[i]))[0], fields, false);
    }
    // Formula and link values are computed by SELECT: re-read when the table has any (no RETURNING for them).
    const records = handle.source.dialect === 'mysql2' || hasFormulas(handle.model)
      ? await readBack(trx, handle, stored.map((r) => keyOf(handle, r)))
      : stored.map((r) => presentRecord(handle.model.outputColumns, r));
    return { result: records, change: { op, rows: records, principal } };
  });
}
