import { withOutbox } from '@tabula/events';
import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { isRelationUidt } from '@tabula/query';
import { listColumns, type ColumnRow } from '../../repositories/column.repository';
import { listTables, nextTableOrder, type TableRow } from '../../repositories/table.repository';
import type { SourceRow } from '../../repositories/source.repository';
import { createPhysicalTable, dropPhysicalTable } from '../../ddl/table-ddl';
import { userTable, type SourceHandle } from '../../ddl/dialect';
import { physicalTypeOf, isPhysical } from '../../ddl/uidt';
import { uniqueName } from '../rules/name-rules';
import { persistTable } from './persist-table';
import { copyViews } from '../views/copy-views';
import { copyHooksOf } from './copy-hooks';

/** What to leave out of a copy. */
export interface CopyOptions {
  excludeData?: boolean;
  excludeViews?: boolean;
  excludeHooks?: boolean;
}

export type { TableCopy } from './table-copy';
import type { TableCopy } from './table-copy';

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

/**
 * Creates the copy's physical table and copies its rows (unless
 * `excludeData`); a failure drops what it created and rethrows. The copy is
 * recorded later, by {@link recordTableCopy} in the caller's transaction.
 */
export async function copyPhysicalTable(
  ports: MetaPorts, from: { table: TableRow; handle: SourceHandle }, to: { baseId: string; source: SourceRow },
  names: { title: string; tableName: string; order: number }, options: CopyOptions,
): Promise<TableCopy> {
  const target = ports.sources.handleOf(to.source);
  const id = newId('m');
  // Relations are not copied: links, their keys, lookups and rollups point at the original tables.
  const sourceColumns = (await listColumns(ports.db, from.table.id)).filter((c) => !isRelationUidt(c.uidt));
  const columnMap = new Map<string, string>();
  const columns: ColumnRow[] = sourceColumns.map((c) => {
    columnMap.set(c.id, newId('c'));
    return { ...c, id: columnMap.get(c.id)!, fk_model_id: id, base_id: to.baseId, dt: physicalTypeOf(target.dialect, c.uidt)?.dt ?? c.dt };
  });
  await createPhysicalTable(target, id, names.tableName, columns);
  try {
    if (!options.excludeData) await copyRows(from.handle, from.table.table_name, target, names.tableName, sourceColumns);
  } catch (err) {
    await dropPhysicalTable(target, names.tableName).catch(() => undefined);
    throw err;
  }
  const row = {
    id, base_id: to.baseId, source_id: to.source.id, table_name: names.tableName, title: names.title, type: from.table.type,
    meta: from.table.meta, description: from.table.description, order: names.order, deleted: false,
  };
  return { fromTableId: from.table.id, row, columns, columnMap };
}

/** Records a physical copy in the metadata (table, columns, default view, events) and copies views unless `excludeViews`. */
export async function recordTableCopy(trx: Knex, copy: TableCopy, principal: Principal, options: CopyOptions): Promise<void> {
  await persistTable(trx, copy.row, copy.columns.map((c) => ({ ...c, created_at: undefined, updated_at: undefined })), principal);
  if (!options.excludeViews) await copyViews(trx, copy.fromTableId, copy.row, copy.columnMap);
}

/**
 * Copies a table (schema, data, views and hooks per options) into a base's
 * source; returns the copy. All or nothing: the metadata, the hooks copy
 * (last, before the commit) and the physical table stand or fall together.
 */
export async function copyTable(
  ports: MetaPorts, principal: Principal, from: { table: TableRow; handle: SourceHandle },
  to: { baseId: string; source: SourceRow }, title: string, options: CopyOptions,
): Promise<TableRow & { id: string }> {
  const existing = await listTables(ports.db, to.baseId);
  const names = {
    tableName: uniqueName(from.table.table_name, existing.filter((t) => t.source_id === to.source.id).map((t) => t.table_name)),
    title: uniqueName(title, existing.map((t) => t.title)),
    order: await nextTableOrder(ports.db, to.baseId),
  };
  const copy = await copyPhysicalTable(ports, from, to, names, options);
  let undoHooks: (() => Promise<void>) | undefined;
  try {
    await withOutbox(ports.db, ports.relay, async (trx) => {
      await recordTableCopy(trx, copy, principal, options);
      if (!options.excludeHooks) undoHooks = await copyHooksOf(ports, to.baseId, [copy]);
    });
  } catch (err) {
    await undoHooks?.();
    await dropPhysicalTable(ports.sources.handleOf(to.source), names.tableName).catch(() => undefined);
    throw err;
  }
  return { ...copy.row, created_at: new Date(), updated_at: new Date() };
}
