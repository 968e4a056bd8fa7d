import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { newId } from '../lib/ids';
import { inMetaTransaction } from '../lib/unit-of-work';
import { listColumns, type ColumnRow } from '../repositories/column.repository';
import { listTables, nextTableOrder, type TableRow } from '../repositories/table.repository';
import type { SourceRow } from '../repositories/source.repository';
import { createPhysicalTable, dropPhysicalTable } from '../ddl/table-ddl';
import { userTable, type SourceHandle } from '../ddl/dialect';
import { physicalTypeOf, isPhysical } from '../ddl/uidt';
import { uniqueName } from './name-rules';
import { persistTable } from './persist-table';
import { copyViews } from './copy-views';

/** What to leave out of a copy. */
export interface CopyOptions {
  excludeData?: boolean;
  excludeViews?: boolean;
}

async function copyRows(from: SourceHandle, fromName: string, to: SourceHandle, toName: string, columns: ColumnRow[]): Promise<void> {
  const names = columns.filter((c) => c.column_name && (isPhysical(c.uidt) || c.system || c.pk)).map((c) => c.column_name!);
  const unique = [...new Set(names)];
  const pk = columns.find((c) => c.pk)?.column_name ?? unique[0];
  for (let offset = 0; ; offset += 500) {
    const rows = await userTable(from, fromName).select(unique).orderBy(pk).offset(offset).limit(500);
    if (!rows.length) break;
    await userTable(to, toName).insert(rows);
  }
  if (to.dialect === 'pg') {
    const qualified = to.schema ? `${to.schema}.${toName}` : toName;
    await to.knex.raw(`SELECT setval(pg_get_serial_sequence(?, 'id'), COALESCE((SELECT MAX(id) FROM ??), 0) + 1, false)`, [
      `"${qualified.replace(/\./, '"."')}"`, qualified,
    ]);
  }
}

/** Copies a table (schema, data and views per options) into a base's source; returns the copy. */
export async function copyTable(
  ports: MetaPorts, principal: Principal, from: { table: TableRow; handle: SourceHandle },
  to: { baseId: string; source: SourceRow }, title: string, options: CopyOptions,
): Promise<TableRow & { id: string }> {
  const target = ports.sources.handleOf(to.source);
  const existing = await listTables(ports.db, to.baseId);
  const id = newId('m');
  const tableName = uniqueName(from.table.table_name, existing.filter((t) => t.source_id === to.source.id).map((t) => t.table_name));
  const finalTitle = uniqueName(title, existing.map((t) => t.title));
  const sourceColumns = await listColumns(ports.db, from.table.id);
  const columnMap = new Map<string, string>();
  const columns: ColumnRow[] = sourceColumns.map((c) => {
    columnMap.set(c.id, newId('c'));
    return { ...c, id: columnMap.get(c.id)!, fk_model_id: id, base_id: to.baseId, dt: physicalTypeOf(target.dialect, c.uidt)?.dt ?? c.dt };
  });
  await createPhysicalTable(target, id, tableName, columns);
  const row = {
    id, base_id: to.baseId, source_id: to.source.id, table_name: tableName, title: finalTitle, type: from.table.type,
    meta: from.table.meta, description: from.table.description, order: await nextTableOrder(ports.db, to.baseId), deleted: false,
  };
  try {
    if (!options.excludeData) await copyRows(from.handle, from.table.table_name, target, tableName, sourceColumns);
    await inMetaTransaction(ports, async (trx) => {
      await persistTable(trx, row, columns.map((c) => ({ ...c, created_at: undefined, updated_at: undefined })), principal);
      if (!options.excludeViews) await copyViews(trx, from.table.id, row, columnMap);
    });
  } catch (err) {
    await dropPhysicalTable(target, tableName).catch(() => undefined);
    throw err;
  }
  return { ...row, created_at: new Date(), updated_at: new Date() };
}
