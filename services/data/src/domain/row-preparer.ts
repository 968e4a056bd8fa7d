import type { Principal } from '@tabula/auth';
import type { TableHandle } from '../context/table-handle';
import { toDbRow, type DbRow, type WriteOptions } from '../model/record-writer';
import { atIndex } from '../values/value-errors';
import { maxOrder, orderOf, tableOf, type Db } from '../repositories/records.repository';
import { parseRowId } from '../model/row-id';
import { ensureOrderSequence } from '../repositories/order-sequence';

/** Maps every body to its stored row; the first bad one fails the whole request, naming its index when bulk. */
export function prepareRows(handle: TableHandle, bodies: unknown[], options: Omit<WriteOptions, 'now'>, bulk: boolean): DbRow[] {
  const write: WriteOptions = Object.assign({}, options, { now: new Date() }); // not a spread with a new property (V8's slow path)
  return bodies.map((body, i) => {
    try {
      return toDbRow(handle.model, body, write);
    } catch (err) {
      throw bulk ? atIndex(err, i) : err;
    }
  });
}

/** The writing user's id for created_by / updated_by. */
export function userIdOf(principal: Principal): string | undefined {
  return principal.kind === 'user' ? principal.id : undefined;
}

/**
 * Gives new rows their nc_order: after the last row (from the table's
 * `sequence` when it has one: order-sequence.ts, else max()+1), or (with
 * `before`, a row id) evenly between that row and the one preceding it.
 */
export async function assignOrder(db: Db, handle: TableHandle, rows: DbRow[], before?: string, sequence?: string): Promise<void> {
  const col = handle.model.orderColumn?.column_name;
  if (!col || !rows.length) return;
  const beforeKey = before ? parseRowId(handle.model, before) : undefined;
  const beforeOrder = beforeKey ? await orderOf(db, handle, beforeKey) : undefined;
  if (beforeOrder === undefined && sequence) {
    const res = await db.raw('select nextval(?::regclass) as n from generate_series(1, ?::int)', [sequence, rows.length]);
    (res.rows as { n: string | number }[]).forEach((r, i) => { rows[i][col] = Number(r.n); });
    return;
  }
  if (beforeOrder === undefined) {
    const start = await maxOrder(db, handle);
    rows.forEach((r, i) => { r[col] = start + i + 1; });
    return;
  }
  const prev = await tableOf(db, handle).max({ m: col }).where(col, '<', beforeOrder).first();
  const low = Number((prev as DbRow | undefined)?.m ?? beforeOrder - 1) || beforeOrder - 1;
  const step = (beforeOrder - low) / (rows.length + 1);
  rows.forEach((r, i) => { r[col] = low + step * (i + 1); });
}

/** The table's nc_order sequence (created on first use) on default pg sources; else undefined (max()+1). Call outside transactions. */
export async function orderSequenceOf(handle: TableHandle): Promise<string | undefined> {
  if (!handle.source.sharesOutboxDatabase || handle.source.dialect !== 'pg') return undefined;
  return ensureOrderSequence(handle.source.knex, handle);
}
