import { errors, type AccessScope, type AppError } from '@tabula/http';
import { resolveBaseRef, type ScopeResolver, type ScopeResolvers } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { baseCandidates, findBase, type BaseRow } from '../../repositories/base.repository';
import { findColumn, type ColumnRow } from '../../repositories/column.repository';
import { findView, findViewColumnById, type ViewColumnRow, type ViewRow } from '../../repositories/view.repository';
import { findSort, type SortRow } from '../../repositories/sort.repository';
import { findFilter, type FilterRow } from '../../repositories/filter.repository';
import { loadTableScope, tableNotFound, type TableScope } from './table-scope';

/** A base the guard authorized. */
export type BaseInScope = AccessScope<BaseRow>;
/** A table (with its base and source) the guard authorized. */
export type TableInScope = AccessScope<TableScope>;
/** A column and its table. */
export type ColumnInScope = AccessScope<TableScope & { column: ColumnRow }>;
/** A view and its table. */
export type ViewInScope = AccessScope<TableScope & { view: ViewRow }>;
/** A column's place in one view (grid-columns, form-columns), its view and table. */
export type ViewColumnInScope = AccessScope<TableScope & { view: ViewRow; viewColumn: ViewColumnRow }>;
/** A sort, its view and table. */
export type SortInScope = AccessScope<TableScope & { view: ViewRow; sort: SortRow }>;
/** A view filter, its view and table. */
export type FilterInScope = AccessScope<TableScope & { view: ViewRow; filter: FilterRow }>;

const notFound = (code: Parameters<typeof errors.notFound>[0], what: string) => (id: unknown): AppError => errors.notFound(code, `${what} '${String(id)}' not found`);
const baseNotFound = notFound('ERR_BASE_NOT_FOUND', 'Base');
const columnNotFound = notFound('ERR_COLUMN_NOT_FOUND', 'Column');
const viewNotFound = notFound('ERR_VIEW_NOT_FOUND', 'View');
const sortNotFound = notFound('ERR_SORT_NOT_FOUND', 'Sort');
const viewColumnNotFound = notFound('ERR_COLUMN_NOT_FOUND', 'Column');
const filterNotFound = notFound('ERR_FILTER_NOT_FOUND', 'Filter');

/**
 * A view's table, where a missing view (or the view of a missing sort or
 * filter) answers `missing`; a view whose table is gone answers the table's 404.
 */
async function viewWithTable(ports: MetaPorts, viewId: string, missing: () => AppError): Promise<TableScope & { view: ViewRow }> {
  const view = await findView(ports.db, viewId);
  if (!view) throw missing();
  return { ...(await loadTableScope(ports, view.fk_model_id)), view };
}

/** The base of a table-like scope, for the guard. */
const inBase = <T extends TableScope>(value: T) => ({ baseId: value.base.id, value });

/**
 * What meta's contracts are scoped by (libs/contracts/src/meta/scopes.ts),
 * each loaded as the use cases need it. The guard answers a caller with no
 * role in the resource's base with the resource's own 404 (`missing`), never
 * a 403 that would tell the id exists.
 */
export function metaScopes(ports: MetaPorts): ScopeResolvers {
  const base: ScopeResolver<BaseRow> = {
    missing: baseNotFound,
    // A title is resolved among the caller's own bases (none: 404, several: 409).
    resolve: async (principal, ref) => {
      const id = await resolveBaseRef(ports.baseAccess, principal, String(ref), await baseCandidates(ports.db, String(ref)));
      const row = await findBase(ports.db, id);
      if (!row) throw baseNotFound(ref);
      return { baseId: row.id, value: row };
    },
  };
  const table: ScopeResolver<TableScope> = {
    missing: (id) => tableNotFound(String(id)),
    resolve: async (_principal, id) => inBase(await loadTableScope(ports, String(id))),
  };
  const column: ScopeResolver<TableScope & { column: ColumnRow }> = {
    missing: columnNotFound,
    resolve: async (_principal, id) => {
      const row = await findColumn(ports.db, String(id));
      if (!row) throw columnNotFound(id);
      return inBase({ ...(await loadTableScope(ports, row.fk_model_id)), column: row });
    },
  };
  const view: ScopeResolver<TableScope & { view: ViewRow }> = {
    missing: viewNotFound,
    resolve: async (_principal, id) => inBase(await viewWithTable(ports, String(id), () => viewNotFound(id))),
  };
  const viewColumn: ScopeResolver<TableScope & { view: ViewRow; viewColumn: ViewColumnRow }> = {
    missing: viewColumnNotFound,
    // Another tenant's view column answers like a missing one (not with its view's id).
    resolve: async (_principal, id) => {
      const row = await findViewColumnById(ports.db, String(id));
      if (!row) throw viewColumnNotFound(id);
      return inBase({ ...(await viewWithTable(ports, row.fk_view_id, () => viewColumnNotFound(id))), viewColumn: row });
    },
  };
  const sort: ScopeResolver<TableScope & { view: ViewRow; sort: SortRow }> = {
    missing: sortNotFound,
    // Another tenant's sort answers like a missing sort (not with its view's id).
    resolve: async (_principal, id) => {
      const row = await findSort(ports.db, String(id));
      if (!row) throw sortNotFound(id);
      return inBase({ ...(await viewWithTable(ports, row.fk_view_id, () => sortNotFound(id))), sort: row });
    },
  };
  const filter: ScopeResolver<TableScope & { view: ViewRow; filter: FilterRow }> = {
    missing: filterNotFound,
    // Hook filters (no view) are not view filters: they answer as missing, like another tenant's.
    resolve: async (_principal, id) => {
      const row = await findFilter(ports.db, String(id));
      if (!row || !row.fk_view_id) throw filterNotFound(id);
      return inBase({ ...(await viewWithTable(ports, row.fk_view_id, () => filterNotFound(id))), filter: row });
    },
  };
  return { base, table, column, view, viewColumn, sort, filter };
}
