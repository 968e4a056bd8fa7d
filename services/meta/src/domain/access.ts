import { errors, type AppError } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { findBase, type BaseRow, baseCandidates } from '../repositories/base.repository';
import { resolveBaseRef, type BaseAction, type Principal } from '@tabula/auth';
import { loadTableScope, type TableScope } from './scopes/table-scope';
import { findColumn, type ColumnRow } from '../repositories/column.repository';
import { findView, type ViewRow } from '../repositories/view.repository';

export type { TableScope } from './scopes/table-scope';

/**
 * Checks the caller's role in a base. A caller with no role there (another
 * tenant, another base's token) gets exactly the answer of a missing resource
 * (`hidden`), so ids never reveal what exists; a member whose role lacks the
 * action gets 403.
 */
export async function authorizeVisible(ports: MetaPorts, principal: Principal, baseId: string, action: BaseAction, hidden: () => AppError): Promise<void> {
  await ports.baseAccess.authorizeVisible(principal, baseId, action, hidden);
}

/** A base the caller may act on. */
export async function requireBase(ports: MetaPorts, principal: Principal, ref: string, action: BaseAction): Promise<BaseRow> {
  const id = await resolveBaseRef(ports.baseAccess, principal, ref, await baseCandidates(ports.db, ref));
  const base = await findBase(ports.db, id);
  const hidden = () => errors.notFound('ERR_BASE_NOT_FOUND', `Base '${ref}' not found`);
  if (!base) throw hidden();
  await authorizeVisible(ports, principal, base.id, action, hidden);
  return base;
}

/** A table the caller may act on (`hidden`: the answer when the caller may not see its base). */
export async function requireTable(
  ports: MetaPorts, principal: Principal, tableId: string, action: BaseAction,
  hidden: () => AppError = () => errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`),
): Promise<TableScope> {
  const scope = await loadTableScope(ports, tableId);
  await authorizeVisible(ports, principal, scope.base.id, action, hidden);
  return scope;
}

/** A column (and its table) the caller may act on. */
export async function requireColumn(
  ports: MetaPorts, principal: Principal, columnId: string, action: BaseAction,
): Promise<TableScope & { column: ColumnRow }> {
  const column = await findColumn(ports.db, columnId);
  const hidden = () => errors.notFound('ERR_COLUMN_NOT_FOUND', `Column '${columnId}' not found`);
  if (!column) throw hidden();
  const scope = await requireTable(ports, principal, column.fk_model_id, action, hidden);
  return { ...scope, column };
}

/** A view (and its table) the caller may act on. */
export async function requireView(
  ports: MetaPorts, principal: Principal, viewId: string, action: BaseAction,
  hidden: () => AppError = () => errors.notFound('ERR_VIEW_NOT_FOUND', `View '${viewId}' not found`),
): Promise<TableScope & { view: ViewRow }> {
  const view = await findView(ports.db, viewId);
  if (!view) throw hidden();
  const scope = await requireTable(ports, principal, view.fk_model_id, action, hidden);
  return { ...scope, view };
}
