import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { findBase, type BaseRow, baseCandidates } from '../repositories/base.repository';
import { resolveBaseRef, type BaseAction, type Principal } from '@tabula/auth';
import { findSource, type SourceRow } from '../repositories/source.repository';
import { findTable, type TableRow } from '../repositories/table.repository';
import { findColumn, type ColumnRow } from '../repositories/column.repository';
import { findView, type ViewRow } from '../repositories/view.repository';
import type { SourceHandle } from '../ddl/dialect';

/** A base the caller may act on. */
export async function requireBase(ports: MetaPorts, principal: Principal, ref: string, action: BaseAction): Promise<BaseRow> {
  const id = await resolveBaseRef(ports.baseAccess, principal, ref, await baseCandidates(ports.db, ref));
  const base = await findBase(ports.db, id);
  if (!base) throw errors.notFound('ERR_BASE_NOT_FOUND', `Base '${ref}' not found`);
  await ports.baseAccess.authorize(principal, base.id, action);
  return base;
}

/** A table with its base and source, after the role check. */
export interface TableScope {
  base: BaseRow;
  table: TableRow;
  source: SourceRow;
  handle: SourceHandle;
}

/** Loads a live table of a live base; 404 when either is gone. */
export async function loadTableScope(ports: MetaPorts, tableId: string, db: Knex = ports.db): Promise<TableScope> {
  const table = await findTable(db, tableId);
  const base = table ? await findBase(db, table.base_id) : undefined;
  const source = table ? await findSource(db, table.source_id) : undefined;
  if (!table || !base || !source) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`);
  return { base, table, source, handle: ports.sources.handleOf(source) };
}

/** A table the caller may act on. */
export async function requireTable(ports: MetaPorts, principal: Principal, tableId: string, action: BaseAction): Promise<TableScope> {
  const scope = await loadTableScope(ports, tableId);
  await ports.baseAccess.authorize(principal, scope.base.id, action);
  return scope;
}

/** A column (and its table) the caller may act on. */
export async function requireColumn(
  ports: MetaPorts, principal: Principal, columnId: string, action: BaseAction,
): Promise<TableScope & { column: ColumnRow }> {
  const column = await findColumn(ports.db, columnId);
  if (!column) throw errors.notFound('ERR_COLUMN_NOT_FOUND', `Column '${columnId}' not found`);
  const scope = await requireTable(ports, principal, column.fk_model_id, action);
  return { ...scope, column };
}

/** A view (and its table) the caller may act on. */
export async function requireView(
  ports: MetaPorts, principal: Principal, viewId: string, action: BaseAction,
): Promise<TableScope & { view: ViewRow }> {
  const view = await findView(ports.db, viewId);
  if (!view) throw errors.notFound('ERR_VIEW_NOT_FOUND', `View '${viewId}' not found`);
  const scope = await requireTable(ports, principal, view.fk_model_id, action);
  return { ...scope, view };
}
