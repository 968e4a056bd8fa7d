import type { TableHandle } from '../context/table-handle';
import type { KeyWhere } from '../model/row-id';
import type { DbRow } from '../model/record-writer';
import { atIndex, uniqueViolation } from '../values/value-errors';
import { tableOf, type Db } from '../repositories/records.repository';
import { keyText } from './record-reader';

/**
 * Refuses values of unique columns that another row already holds (or that two
 * rows of the batch share), naming the field, value and record index: one
 * query per unique column. The database constraint still guards races.
 * `keys[i]` is the row being updated by `rows[i]` (it may keep its own value).
 */
export async function checkUnique(db: Db, handle: TableHandle, rows: DbRow[], keys: (KeyWhere | undefined)[] = [], bulk = false): Promise<void> {
  for (const column of handle.model.columns.filter((c) => c.unique && !c.pk)) {
    const name = column.column_name;
    const seen = new Map<string, number>();
    rows.forEach((row, i) => {
      const v = row[name];
      if (v === null || v === undefined) return;
      if (seen.has(String(v))) throw wrap(uniqueViolation(column.title, v), i, bulk);
      seen.set(String(v), i);
    });
    if (!seen.size) continue;
    const pkNames = handle.model.primaryKeys.map((p) => p.column_name);
    const existing = (await tableOf(db, handle).select([...pkNames, name]).whereIn(name, [...seen.keys()])) as DbRow[];
    for (const hit of existing) {
      const i = seen.get(String(hit[name])) as number;
      if (keys[i] && keyText(handle, keys[i] as KeyWhere) === keyText(handle, hit)) continue;
      throw wrap(uniqueViolation(column.title, hit[name]), i, bulk);
    }
  }
}

function wrap(err: unknown, index: number, bulk: boolean): unknown {
  return bulk ? atIndex(err, index) : err;
}
