import { VIEW_TYPE_NUMBERS, type FilterInfo, type SortInfo, type ViewInfo, type ViewKind, type viewSchema, type viewColumnSchema } from '@tabula/contracts';
import type { z } from 'zod';

/** A view as the public API answers it. */
export type PublicView = z.infer<typeof viewSchema>;
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
    columns: columns.map((c) => ({ id: c.id, fk_column_id: c.fk_column_id, show: c.show, order: Number(c.order), width: c.width ?? null })),
    sorts: sorts.map((s) => presentSort(s, row)), filters: filterTree(filters),
    details: row.details ?? null, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/**
 * A view as the public API answers it: NocoDB's numeric `type` (grid 3, form 1…)
 * and the kind's own settings under `view`, as NocoDB nests them. Services read
 * ViewInfo, whose `type` is the kind's name.
 */
export function publicView(view: ViewInfo & Record<string, unknown>): PublicView {
  const { details: _internal, ...common } = view;
  return { ...common, type: VIEW_TYPE_NUMBERS[view.type as ViewKind] ?? 3, view: kindSettings(view) } as PublicView;
}

/** A view kind's own settings, as `GET /forms/{id}`… answer them. */
export function kindSettings(view: { id: string; base_id?: string; details?: unknown }): Record<string, unknown> & { fk_view_id: string } {
  return { ...((view.details as Record<string, unknown> | null) ?? {}), fk_view_id: view.id, base_id: view.base_id };
}

/** A view column as NocoDB lists it (`width` on grids; a form field's settings flattened). */
export function presentViewColumn(row: ViewColumnRow, view: { base_id: string }): z.infer<typeof viewColumnSchema> {
  return {
    ...(row.details ?? {}), id: row.id, fk_view_id: row.fk_view_id, fk_column_id: row.fk_column_id, base_id: view.base_id,
    show: row.show, order: Number(row.order), width: row.width ?? null,
  };
}
