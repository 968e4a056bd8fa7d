import type { ScopeRule } from '../endpoint/access';

/**
 * Where meta's permissions are checked: the resource a path parameter names.
 * meta's resolvers find each one's base; a caller with no role there gets the
 * answer of the missing resource (404), a weaker role 403.
 */

type Param<K extends string> = { params: Record<K, string> };

/** The base `{baseId}` names: an id, or a title resolved among the caller's own bases. */
export const onBase: ScopeRule<Param<'baseId'>> = { via: 'base', id: (i) => i.params.baseId };
/** The table `{tableId}`. */
export const onTable: ScopeRule<Param<'tableId'>> = { via: 'table', id: (i) => i.params.tableId };
/** The column `{columnId}` (in its table). */
export const onColumn: ScopeRule<Param<'columnId'>> = { via: 'column', id: (i) => i.params.columnId };
/** The view `{viewId}` (in its table). */
export const onView: ScopeRule<Param<'viewId'>> = { via: 'view', id: (i) => i.params.viewId };
/** The view column `{columnId}` of grid-columns / form-columns (a column's place in one view). */
export const onViewColumn: ScopeRule<Param<'columnId'>> = { via: 'viewColumn', id: (i) => i.params.columnId };
/** The sort `{sortId}` (of its view). */
export const onSort: ScopeRule<Param<'sortId'>> = { via: 'sort', id: (i) => i.params.sortId };
/** The view filter `{filterId}` (hook filters are not view filters: they answer as missing). */
export const onFilter: ScopeRule<Param<'filterId'>> = { via: 'filter', id: (i) => i.params.filterId };
/** The filter group `{parentId}` whose children are listed. */
export const onFilterGroup: ScopeRule<Param<'parentId'>> = { via: 'filter', id: (i) => i.params.parentId };
