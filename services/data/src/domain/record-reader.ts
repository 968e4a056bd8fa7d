import type { ColumnInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { recordNotFound, type KeyWhere } from '../model/row-id';
import { atIndex } from '../values/value-errors';
import { presentRecord, type ApiRecord } from '../presenters/record.presenter';
import { selectByKeys, type Db } from '../repositories/records.repository';

/** A stable text of a key, to match rows read back with the keys asked for. */
export function keyText(handle: TableHandle, key: Record<string, unknown>): string {
  return handle.model.primaryKeys.map((pk) => String(key[pk.column_name])).join('\u0000');
}

/** Reads rows by key (one query) and answers them presented, in the order of `keys` (missing ones skipped). */
export async function readBack(db: Db, handle: TableHandle, keys: KeyWhere[], columns: ColumnInfo[] = handle.model.outputColumns): Promise<ApiRecord[]> {
  const rows = await selectByKeys(db, handle, keys, withKeys(handle, columns));
  const byKey = new Map(rows.map((r) => [keyText(handle, r), r]));
  return keys.flatMap((k) => {
    const row = byKey.get(keyText(handle, k));
    return row ? [presentRecord(columns, row)] : [];
  });
}

/** The columns plus the primary key (needed to match rows). */
export function withKeys(handle: TableHandle, columns: ColumnInfo[]): ColumnInfo[] {
  const missing = handle.model.primaryKeys.filter((pk) => !columns.includes(pk));
  return missing.length ? [...missing, ...columns] : columns;
}

/** The key of a stored row. */
export function keyOf(handle: TableHandle, row: Record<string, unknown>): KeyWhere {
  return Object.fromEntries(handle.model.primaryKeys.map((p) => [p.column_name, row[p.column_name] as string | number]));
}

/** 404 for the first key that names no row (bulk: with its index). */
export async function throwMissing(db: Db, handle: TableHandle, keys: KeyWhere[], rowId?: string): Promise<never> {
  if (rowId !== undefined) throw recordNotFound(rowId);
  const found = new Set((await selectByKeys(db, handle, keys, handle.model.primaryKeys)).map((r) => keyText(handle, r)));
  const i = keys.findIndex((k) => !found.has(keyText(handle, k)));
  throw atIndex(recordNotFound(Object.values(keys[i]).join('___')), i);
}
