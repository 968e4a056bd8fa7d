import { AppError, appError, type AccessScope } from '@tabula/http';
import type { ScopeResolvers } from '@tabula/auth';
import type { TableRefId, ViewInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { findView } from '../model/table-model';
import type { DataPorts } from '../ports';

/** A table as a route names it: `{baseName}/{tableName}[/views/{viewName}]` (the contracts' `tableRef` scope id). */
export type TableRef = TableRefId;

/** What the guard resolved for a data route: the table (cached handle) and the view its path names, if any. */
export interface TableTarget {
  handle: TableHandle;
  viewName?: string;
}

/** A table the guard authorized: its base holds the contract's permission (data.read or data.write). */
export type TableInScope = AccessScope<TableTarget>;

/** The resolved table and view of a request. */
export interface OpenTable {
  handle: TableHandle;
  view?: ViewInfo;
}

/** The answer for a base the caller may not see: the same as for a base that does not exist. */
export function baseNotFound(ref: TableRef): Error {
  return appError('ERR_BASE_NOT_FOUND', `Base '${ref.baseName}' not found`);
}

/** The answer for a table id the caller may not see: the same as for a table that does not exist. */
export function tableNotFound(tableId: unknown): Error {
  return appError('ERR_TABLE_NOT_FOUND', `Table '${String(tableId)}' not found`);
}

/** The `viewId` of a validated query, if any (NocoDB v2 lists and counts read through a view by id). */
function viewIdOf(input: unknown): string | undefined {
  const viewId = (input as { query?: { viewId?: unknown } } | undefined)?.query?.viewId;
  return typeof viewId === 'string' && viewId !== '' ? viewId : undefined;
}

/**
 * What the data contracts are scoped by: `tableRef`, the table a route names,
 * or `table`, a table id (NocoDB v2 paths; the query's `viewId` names the view).
 * The base title is resolved among the bases the caller may access and the
 * table comes from the cached resolver: the guard's lookup is the one the
 * use case serves from (the handle travels in the scope; nothing resolves it
 * again). A caller without a role in the table's base gets {@link baseNotFound}.
 */
export function dataScopes(ports: DataPorts): ScopeResolvers {
  return {
    tableRef: {
      missing: (id) => baseNotFound(id as TableRef),
      resolve: async (principal, id) => {
        const ref = id as TableRef;
        const handle = await ports.tables.resolveFor(ports.baseAccess, principal, ref.baseName, ref.tableName);
        return { baseId: handle.baseId, value: { handle, viewName: ref.viewName } };
      },
    },
    table: {
      missing: tableNotFound,
      resolve: async (_principal, id, input) => {
        const handle = await ports.tables.resolveById(String(id)).catch((err: unknown) => {
          throw err instanceof AppError && err.status === 404 ? tableNotFound(id) : err;
        });
        return { baseId: handle.baseId, value: { handle, viewName: viewIdOf(input) } };
      },
    },
  };
}

/**
 * The authorized table and the view its route names. The view is looked up
 * here, after the permission (a caller refused the table learns nothing of
 * its views): 404 ERR_VIEW_NOT_FOUND for an unknown one.
 */
export function openTable(scope: TableInScope): OpenTable {
  const { handle, viewName } = scope.value;
  return { handle, view: viewName ? findView(handle.model, viewName) : undefined };
}
