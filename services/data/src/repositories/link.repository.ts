import type { TableHandle } from '../context/table-handle';
import { linkPlanOf } from '../model/link-columns';
import type { KeyWhere } from '../model/row-id';
import type { Db } from './db';

/**
 * Unlinks rows about to be deleted where the database does not: SQLite
 * sources carry no foreign key constraints on added link keys (and knex does
 * not switch `foreign_keys` on), so children's keys are cleared and junction
 * rows removed here, one statement per link column.
 */
export async function detachLinks(db: Db, handle: TableHandle, keys: KeyWhere[]): Promise<void> {
  const pk = handle.model.primaryKeys;
  if (pk.length !== 1 || !keys.length) return;
  const ids = keys.map((k) => k[pk[0].column_name]);
  for (const column of handle.model.columns) {
    const plan = linkPlanOf(column);
    if (!plan || plan.fkHere) continue;
    if (plan.junction) await db.from(plan.junction.name).whereIn(plan.junction.self, ids).delete();
    else await db.from(plan.related.table_name).whereIn(plan.fk!, ids).update({ [plan.fk!]: null });
  }
}
