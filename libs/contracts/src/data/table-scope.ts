import type { ScopeRule } from '../endpoint/access';

/** A table as a data route names it: `{baseName}/{tableName}[/views/{viewName}]` (ids or titles). */
export interface TableRefId {
  baseName: string;
  tableName: string;
  viewName?: string;
}

/**
 * The scope of every data route: the table (and view) its path names. The
 * data service resolves it among the bases the caller may see; the permission
 * is checked in that table's base.
 */
export const tableRefScope: ScopeRule<{ params: TableRefId }> = {
  via: 'tableRef',
  id: ({ params }): TableRefId => ({ baseName: params.baseName, tableName: params.tableName, viewName: params.viewName }),
};
