import type { FilterInfo, SortInfo, ViewInfo } from '@tabula/contracts';
import type { ViewColumnRow, ViewRow } from '../repositories/view.repository';
import type { SortRow } from '../repositories/sort.repository';
import type { FilterRow } from '../repositories/filter.repository';

/** Sort row → the spec's Sort. */
export function presentSort(row: SortRow, view: { fk_model_id: string; base_id: string }, sourceId?: string): SortInfo & Record<string, unknown> {
  return {
    id: row.id, fk_view_id: row.fk_view_id, fk_model_id: view.fk_model_id, base_id: view.base_id, source_id: sourceId,
    fk_column_id: row.fk_column_id, direction: row.direction, order: Number(row.order), fk_level_id: row.fk_level_id ?? undefined,
  };
}

/** Filter row → NocoDB filter (without children). */
export function presentFilter(row: FilterRow): FilterInfo & Record<string, unknown> {
  return {
    id: row.id, fk_view_id: row.fk_view_id, fk_hook_id: row.fk_hook_id, fk_parent_id: row.fk_parent_id,
    fk_column_id: row.fk_column_id, base_id: row.base_id, comparison_op: row.comparison_op,
    comparison_sub_op: row.comparison_sub_op, value: row.value, logical_op: row.logical_op, is_group: row.is_group,
    order: row.order === null ? null : Number(row.order),
  };
}

/** Flat filter rows → trees (children under their group). */
export function filterTree(rows: FilterRow[]): FilterInfo[] {
  const byParent = new Map<string | null, FilterRow[]>();
  for (const r of rows) byParent.set(r.fk_parent_id, [...(byParent.get(r.fk_parent_id) ?? []), r]);
  const build = (parent: string | null): FilterInfo[] =>
    (byParent.get(parent) ?? []).map((r) => (r.is_group ? { ...presentFilter(r), children: build(r.id) } : presentFilter(r)));
  return build(null);
}

/** View row (+ its columns, sorts, filters) → ViewInfo. */
export function presentView(row: ViewRow, columns: ViewColumnRow[], sorts: SortRow[], filters: FilterRow[]): ViewInfo & Record<string, unknown> {
  return {
    id: row.id, title: row.title, type: row.type, fk_model_id: row.fk_model_id, base_id: row.base_id,
    is_default: row.is_default, order: Number(row.order), meta: row.meta ?? {},
    columns: columns.map((c) => ({ fk_column_id: c.fk_column_id, show: c.show, order: Number(c.order) })),
    sorts: sorts.map((s) => presentSort(s, row)), filters: filterTree(filters),
    created_at: row.created_at, updated_at: row.updated_at,
  };
}
