import { appError, errors } from '@tabula/http';
import type { FilterBody } from '@tabula/contracts';
import type { MetaPorts } from '../../ports';
import { findColumn } from '../../repositories/column.repository';
import { findFilter, listFiltersOfViews, type FilterRow } from '../../repositories/filter.repository';
import { findSort, listSorts as listSortRows, type SortRow } from '../../repositories/sort.repository';
import { listViewColumns as listViewColumnRows } from '../../repositories/view.repository';
import { presentViewColumn } from '../../presenters/view.presenter';
import { createSort, deleteSort, updateSort } from './sort-crud';
import { createFilter, deleteFilter, updateFilter } from './filter-crud';
import { updateColumnOfView } from './view-kinds';
import type { ViewInScope } from '../scopes/meta-scopes';

/**
 * NocoDB's v3 shapes of a view's sorts, filters and columns over the v1 use
 * cases (sort-crud, filter-crud, view-kinds): the v1 validation, events and
 * indexes hold; this file only translates v3's bodies and answers.
 */

/* ---- sorts: `{ id, field_id, direction }` ---- */

const sortV3 = (s: SortRow) => ({ id: s.id, field_id: s.fk_column_id, direction: s.direction as 'asc' | 'desc' });

export async function listSortsV3(ports: MetaPorts, scope: ViewInScope) {
  return { list: (await listSortRows(ports.db, [scope.value.view.id])).map(sortV3) };
}

/** NocoDB: one sort per field (400 "Sort already exists for this field"); a field that does not exist is 404 "Column not found". */
export async function createSortV3(ports: MetaPorts, scope: ViewInScope, body: { field_id: string; direction: 'asc' | 'desc' }) {
  const sorts = await listSortRows(ports.db, [scope.value.view.id]);
  if (sorts.some((s) => s.fk_column_id === body.field_id)) throw errors.badRequest('Sort already exists for this field');
  const column = await findColumn(ports.db, body.field_id);
  if (!column || column.fk_model_id !== scope.value.view.fk_model_id) throw errors.notFound('ERR_NOT_FOUND', 'Column not found');
  const created = await createSort(ports, scope, { fk_column_id: body.field_id, direction: body.direction, push_to_top: false });
  return sortV3((await findSort(ports.db, String(created.id)))!);
}

/** The view's sort named by `id` (or, without one, its sort of `field_id`): 404 "Sort not found" otherwise. */
async function sortOf(ports: MetaPorts, scope: ViewInScope, body: { id?: string; field_id?: string }) {
  const sort = body.id ? await findSort(ports.db, body.id)
    : (await listSortRows(ports.db, [scope.value.view.id])).find((s) => s.fk_column_id === body.field_id);
  if (!sort || sort.fk_view_id !== scope.value.view.id) throw errors.notFound('ERR_SORT_NOT_FOUND', 'Sort not found');
  return { ...scope, value: { ...scope.value, sort } };
}

export async function updateSortV3(ports: MetaPorts, scope: ViewInScope, body: { id?: string; field_id?: string; direction?: 'asc' | 'desc' }) {
  const sortScope = await sortOf(ports, scope, body);
  await updateSort(ports, sortScope, { fk_column_id: body.id ? body.field_id : undefined, direction: body.direction });
  return sortV3((await findSort(ports.db, sortScope.value.sort.id))!);
}

export async function deleteSortV3(ports: MetaPorts, scope: ViewInScope, body: { id: string }) {
  await deleteSort(ports, await sortOf(ports, scope, body));
  return {};
}

/* ---- filters: one tree under NocoDB's root group ---- */

type FilterNode = Record<string, unknown> & { id: string };

/** NocoDB's group operator of a group's children: the second child's logical op (the first one's is not used), upper-cased. */
function groupOperator(children: FilterRow[]): string | null {
  const op = (children[1] ?? children[0])?.logical_op;
  return children.length && op ? op.toUpperCase() : null;
}

/** The view's filters as v3's tree: `{ id: 'root', group_operator, filters: [filter | group] }`, or undefined without any. */
export async function filterTreeV3(ports: MetaPorts, scope: ViewInScope) {
  const rows = await listFiltersOfViews(ports.db, [scope.value.view.id]);
  if (!rows.length) return undefined;
  const byParent = new Map<string | null, FilterRow[]>();
  for (const r of rows) byParent.set(r.fk_parent_id, [...(byParent.get(r.fk_parent_id) ?? []), r]);
  const build = (parent: string | null): FilterNode[] => (byParent.get(parent) ?? []).map((r) => {
    if (r.is_group) return { id: r.id, group_operator: groupOperator(byParent.get(r.id) ?? []), filters: build(r.id) };
    const node: FilterNode = { id: r.id, field_id: r.fk_column_id, operator: r.comparison_op, sub_operator: r.comparison_sub_op, value: r.value };
    for (const key of Object.keys(node)) if (node[key] === null || node[key] === undefined) delete node[key];
    return node;
  });
  const roots = byParent.get(null) ?? [];
  return { id: 'root' as const, group_operator: groupOperator(roots), filters: build(null) };
}

interface FilterV3Body {
  field_id?: string;
  operator?: string;
  sub_operator?: string;
  value?: unknown;
  group_operator?: string;
  filters?: FilterV3Body[];
  parent_id?: string;
}

const logicalOf = (op: string | undefined): 'and' | 'or' | undefined => {
  const lower = op?.toLowerCase();
  if (lower === undefined) return undefined;
  if (lower !== 'and' && lower !== 'or') throw errors.badRequest(`group_operator must be AND or OR, not '${op}'`);
  return lower;
};

/** A v3 filter or group as v1's filter body (a group's children in `children`, joined by its operator). */
function v1Body(body: FilterV3Body, logical: 'and' | 'or'): FilterBody {
  if (body.field_id) {
    if (!body.operator) throw errors.badRequest("Filter needs an 'operator'");
    return { fk_column_id: body.field_id, comparison_op: body.operator, comparison_sub_op: body.sub_operator ?? null, value: body.value, logical_op: logical };
  }
  if (body.group_operator === undefined) throw errors.badRequest('Invalid structure: Expected a group or filter.');
  const inner = logicalOf(body.group_operator)!;
  return { is_group: true, logical_op: logical, children: (body.filters ?? []).map((child) => v1Body(child, inner)) };
}

/**
 * POST …/filters: a filter joins its parent group (the root without
 * `parent_id`) with that group's operator; a group at the root adds its
 * filters to the root (400 when the root already joins its filters with
 * another operator), elsewhere it is made as a group. Answers the tree.
 */
export async function createFilterV3(ports: MetaPorts, scope: ViewInScope, raw: unknown) {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw errors.badRequest('Invalid request body');
  const body = raw as FilterV3Body;
  const rows = await listFiltersOfViews(ports.db, [scope.value.view.id]);
  const parent = body.parent_id ?? null;
  if (parent && !rows.some((r) => r.id === parent && r.is_group)) throw errors.badRequest(`parent_id '${parent}' is not a filter group of this view`);
  const siblings = rows.filter((r) => r.fk_parent_id === parent);
  const current = logicalOf(groupOperator(siblings) ?? undefined);
  if (body.field_id || parent) {
    await createFilter(ports, scope, { ...v1Body(body, current ?? 'and'), fk_parent_id: parent });
  } else {
    const wanted = logicalOf(body.group_operator);
    if (wanted === undefined) throw errors.badRequest('Invalid structure: Expected a group or filter.');
    if (current && siblings.length && current !== wanted) {
      throw errors.badRequest(`A root group with a different group operator already exists. Existing: ${current.toUpperCase()}, New: ${body.group_operator}`);
    }
    for (const child of body.filters ?? []) await createFilter(ports, scope, { ...v1Body(child, wanted), fk_parent_id: null });
  }
  return filterTreeV3(ports, scope);
}

/** The view's filter named by `id`: NocoDB answers 400 "Filter not found" for none. */
async function filterOf(ports: MetaPorts, scope: ViewInScope, id: string) {
  const filter = await findFilter(ports.db, id);
  if (!filter || filter.fk_view_id !== scope.value.view.id) throw errors.badRequest('Filter not found');
  return { ...scope, value: { ...scope.value, filter } };
}

/** PATCH …/filters `{ id, … }`: a filter's field, operator or value; a group's operator (its children's logical op). Answers the tree. */
export async function updateFilterV3(ports: MetaPorts, scope: ViewInScope, body: FilterV3Body & { id: string }) {
  const filterScope = await filterOf(ports, scope, body.id);
  if (filterScope.value.filter.is_group) {
    const op = logicalOf(body.group_operator);
    if (op) {
      const children = (await listFiltersOfViews(ports.db, [scope.value.view.id])).filter((r) => r.fk_parent_id === body.id);
      for (const child of children) await updateFilter(ports, { ...scope, value: { ...scope.value, filter: child } }, { logical_op: op });
    }
  } else {
    const patch: Partial<FilterBody> = {};
    if (body.field_id !== undefined) patch.fk_column_id = body.field_id;
    if (body.operator !== undefined) patch.comparison_op = body.operator;
    if (body.sub_operator !== undefined) patch.comparison_sub_op = body.sub_operator;
    if (body.value !== undefined) patch.value = body.value;
    await updateFilter(ports, filterScope, patch);
  }
  return filterTreeV3(ports, scope);
}

/** DELETE …/filters `{ id }` (`root`: every filter of the view). */
export async function deleteFilterV3(ports: MetaPorts, scope: ViewInScope, id: string) {
  if (id === 'root') {
    const roots = (await listFiltersOfViews(ports.db, [scope.value.view.id])).filter((r) => r.fk_parent_id === null);
    for (const filter of roots) await deleteFilter(ports, { ...scope, value: { ...scope.value, filter } });
    return {};
  }
  await deleteFilter(ports, await filterOf(ports, scope, id));
  return {};
}

/* ---- view columns: `{ fields: { <field id>: view column } }` ---- */

export async function listViewColumnsV3(ports: MetaPorts, scope: ViewInScope) {
  const { view } = scope.value;
  const rows = await listViewColumnRows(ports.db, [view.id]);
  return { fields: Object.fromEntries(rows.map((c) => [c.fk_column_id, presentViewColumn(c, view)])) };
}

/** PATCH …/columns: `[{ id: <field id>, … }]` or `{ fields: { <field id>: { … } } }`, each through v1's column update; NocoDB answers `{}`. */
export async function updateViewColumnsV3(ports: MetaPorts, scope: ViewInScope, body: unknown) {
  const fields = (body as { fields?: unknown } | null)?.fields;
  const entries: [string, Record<string, unknown>][] = Array.isArray(body)
    ? body.map((c: Record<string, unknown>) => [String(c?.id ?? ''), c])
    : fields && typeof fields === 'object' ? Object.entries(fields as Record<string, Record<string, unknown>>) : [];
  if (!Array.isArray(body) && !entries.length) throw errors.badRequest('Invalid request - fields not found');
  for (const [fieldId, change] of entries) {
    if (!change || typeof change !== 'object') throw errors.badRequest(`Field '${fieldId}': a column change must be an object`);
    const { id: _id, ...rest } = change;
    try {
      await updateColumnOfView(ports, scope, fieldId, rest as never);
    } catch (err) {
      throw (err as { code?: string }).code === 'ERR_COLUMN_NOT_FOUND' ? appError('ERR_FIELD_NOT_FOUND', `Field '${fieldId}' not found`) : err;
    }
  }
  return {};
}
