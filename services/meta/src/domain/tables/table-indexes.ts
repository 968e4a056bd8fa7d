import type { z } from 'zod';
import { appError, errors } from '@tabula/http';
import { isUniqueViolation, newId } from '@tabula/db';
import { isLinkUidt, isUnindexableUidt } from '@tabula/query';
import type { createIndexSchema, tableIndexSchema } from '@tabula/contracts';
import type { MetaPorts } from '../../ports';
import { listColumns, type ColumnRow } from '../../repositories/column.repository';
import { AUTO_PREFIX, createPhysicalIndex, dropPhysicalIndex, listPhysicalIndexes, MANUAL_PREFIX, type PhysicalIndex } from '../../ddl/index-ddl';
import { isPhysical, systemPointer } from '../../ddl/uidt';
import type { TableScope } from '../scopes/table-scope';
import type { TableInScope } from '../scopes/meta-scopes';

type TableIndex = z.infer<typeof tableIndexSchema>;

/** The physical column a metadata column reads (CreatedTime → created_at), or undefined when it has none. */
function physicalName(column: ColumnRow): string | undefined {
  const pointer = systemPointer(column.uidt);
  if (pointer) return pointer;
  return isPhysical(column.uidt) ? column.column_name ?? undefined : undefined;
}

function originOf(index: PhysicalIndex, tableId: string, byId: Map<string, ColumnRow>): TableIndex['origin'] {
  if (index.primary || index.name.startsWith('pk_')) return 'primary';
  if (index.name.startsWith(MANUAL_PREFIX)) return 'manual';
  if (index.name.startsWith(AUTO_PREFIX)) return 'view';
  if (index.name === `${tableId}_order_idx`) return 'system';
  if (index.name.startsWith('ix_') || index.name.startsWith('fk_')) return 'link';
  if (index.name.startsWith('uq_')) return isLinkUidt(byId.get(index.name.slice(3))?.uidt ?? '') ? 'link' : 'unique';
  return 'other';
}

function present(index: PhysicalIndex, tableId: string, columns: ColumnRow[]): TableIndex {
  const byName = new Map<string, ColumnRow>();
  for (const c of columns) {
    const name = physicalName(c);
    if (name && !byName.has(name)) byName.set(name, c);
  }
  return {
    id: index.name, fk_model_id: tableId, unique: index.unique, origin: originOf(index, tableId, new Map(columns.map((c) => [c.id, c]))),
    columns: index.columns.map((name) => ({ id: byName.get(name)?.id ?? null, title: byName.get(name)?.title ?? null, column_name: name })),
  };
}

/** `{list}` of a table's indexes, read from the database itself. */
export async function listIndexes(ports: MetaPorts, { value: { table, handle } }: TableInScope): Promise<{ list: TableIndex[] }> {
  const columns = await listColumns(ports.db, table.id);
  return { list: (await listPhysicalIndexes(handle, table.table_name)).map((i) => present(i, table.id, columns)) };
}

/** Resolves each reference (id first, then title) to an indexable physical column; 400 for anything else. */
function resolveColumns(refs: string[], columns: ColumnRow[]): ColumnRow[] {
  const picked = refs.map((ref) => {
    const column = columns.find((c) => c.id === ref) ?? columns.find((c) => c.title === ref);
    if (!column) throw errors.badRequest(`Column '${ref}' not found in this table`);
    if (!physicalName(column)) throw errors.badRequest(`Column '${column.title}' is virtual (${column.uidt}): it has nothing to index`);
    if (isUnindexableUidt(column.uidt)) throw errors.badRequest(`Column '${column.title}' (${column.uidt}) cannot be indexed`);
    return column;
  });
  if (new Set(picked.map((c) => c.id)).size !== picked.length) throw errors.badRequest('A column appears twice in the index');
  return picked;
}

function mysqlPrefix(scope: TableScope, column: ColumnRow): number | undefined {
  return scope.handle.dialect === 'mysql2' && /text/i.test(column.dt ?? '') ? 255 : undefined;
}

/** Adds an index on request; 409 when one over the same columns exists (or unique values are not unique). */
export async function createIndex(ports: MetaPorts, { value: scope }: TableInScope, input: z.infer<typeof createIndexSchema>): Promise<TableIndex> {
  const columns = await listColumns(ports.db, scope.table.id);
  const picked = resolveColumns(input.columns, columns);
  const names = picked.map((c) => physicalName(c)!);
  const existing = await listPhysicalIndexes(scope.handle, scope.table.table_name);
  const same = existing.find((i) => i.columns.join('\0') === names.join('\0') && (i.unique || !input.unique));
  if (same) throw appError('ERR_INDEX_EXISTS', `Index '${same.name}' already covers these columns`);
  const name = `${MANUAL_PREFIX}${newId('ix').slice(2)}`;
  try {
    await createPhysicalIndex(scope.handle, {
      name, tableName: scope.table.table_name, unique: input.unique, columns: picked.map((c) => ({ name: physicalName(c)!, prefix: mysqlPrefix(scope, c) })),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw appError('ERR_INDEX_NOT_UNIQUE', 'Some rows share values in these columns: no unique index can be built');
    throw err;
  }
  const created = (await listPhysicalIndexes(scope.handle, scope.table.table_name)).find((i) => i.name === name);
  if (!created) throw errors.internal();
  return present(created, scope.table.id, columns);
}

/** Drops an index made on request; the others (keys, links, view indexes) belong to what made them: 400. */
export async function deleteIndex({ value: scope }: TableInScope, indexId: string): Promise<{ success: boolean }> {
  const index = (await listPhysicalIndexes(scope.handle, scope.table.table_name)).find((i) => i.name === indexId);
  if (!index) throw errors.notFound('ERR_INDEX_NOT_FOUND', `Index '${indexId}' not found`);
  if (!index.name.startsWith(MANUAL_PREFIX)) throw errors.badRequest(`Index '${indexId}' was not made on request and cannot be dropped here`);
  await dropPhysicalIndex(scope.handle, scope.table.table_name, index.name);
  return { success: true };
}

/**
 * Makes sure each column a view sorts or filters by leads some index: one
 * already there (key, unique, link, any index starting with it) is enough;
 * otherwise `ixa_<columnId>` is built (CONCURRENTLY on PostgreSQL). The name
 * is per column, so repeating it is a no-op and two views never build two.
 * Long-text and structured types are skipped, and so are PostgreSQL `text`
 * columns: a B-tree refuses values over ~2.7 kB, which would start refusing
 * inserts. A failure is logged, never fails the sort or filter.
 */
export async function ensureViewIndexes(ports: MetaPorts, scope: TableScope, columnIds: (string | null | undefined)[]): Promise<void> {
  const wanted = [...new Set(columnIds.filter((id): id is string => !!id))];
  if (!wanted.length) return;
  try {
    const columns = await listColumns(ports.db, scope.table.id);
    let existing: PhysicalIndex[] | undefined;
    for (const id of wanted) {
      const column = columns.find((c) => c.id === id);
      const name = column && physicalName(column);
      if (!column || !name || isUnindexableUidt(column.uidt)) continue;
      if (scope.handle.dialect === 'pg' && (column.dt ?? '').toLowerCase() === 'text') continue;
      existing ??= await listPhysicalIndexes(scope.handle, scope.table.table_name);
      if (existing.some((i) => i.columns[0] === name)) continue;
      await createPhysicalIndex(scope.handle, { name: `${AUTO_PREFIX}${column.id}`, tableName: scope.table.table_name, unique: false, columns: [{ name, prefix: mysqlPrefix(scope, column) }] });
      existing.push({ name: `${AUTO_PREFIX}${column.id}`, unique: false, primary: false, columns: [name] });
    }
  } catch (err) {
    ports.logger.warn({ err, table_id: scope.table.id }, 'view index: could not build an index for a sorted/filtered column');
  }
}
