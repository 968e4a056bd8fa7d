import { V3_WORKSPACE_ID } from '@tabula/contracts';
import { isLinkUidt } from '@tabula/query';
import type { BaseRow } from '../repositories/base.repository';
import type { TableRow } from '../repositories/table.repository';
import type { presentColumn } from './column.presenter';

type Column = ReturnType<typeof presentColumn>;
type View = { id: string; title: string; type?: unknown };

/** NocoDB's view types by number (ViewTypes), as v3 names them. */
const VIEW_TYPES: Record<number, string> = { 1: 'form', 2: 'gallery', 3: 'grid', 4: 'kanban', 5: 'map', 6: 'calendar' };

/** A base as NocoDB's v3 answers it (from its row or its v1 presentation). */
export function presentBaseV3(row: Pick<BaseRow, 'id' | 'title' | 'meta' | 'created_at' | 'updated_at'>) {
  return { id: row.id, title: row.title, meta: row.meta ?? {}, workspace_id: V3_WORKSPACE_ID, created_at: v3Time(row.created_at), updated_at: v3Time(row.updated_at) };
}

/** A time as NocoDB's v3 meta answers it: `YYYY-MM-DD HH:mm:ss+00:00` (UTC). */
function v3Time(value: unknown): unknown {
  const date = value instanceof Date ? value : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? `${date.toISOString().slice(0, 19).replace('T', ' ')}+00:00` : value;
}

/** A table of a v3 list. */
export function presentTableSummaryV3(row: Pick<TableRow, 'id' | 'title' | 'base_id' | 'description'>) {
  return { id: row.id, title: row.title, ...(row.description ? { description: row.description } : {}), base_id: row.base_id, workspace_id: V3_WORKSPACE_ID };
}

const isLink = (c: Column) => isLinkUidt(c.uidt);

/** A field: NocoDB's uidt as `type`; links name their related table and kind, selects their choices. */
export function presentFieldV3(c: Column) {
  const field: Record<string, unknown> = { id: c.id, table_id: c.fk_model_id, title: c.title, type: c.uidt };
  if (c.description) field.description = c.description;
  if (c.cdf !== null && c.cdf !== undefined && c.cdf !== '') field.default_value = c.cdf;
  if (c.pk || isLink(c)) field.system = false;
  const opts = c.colOptions as { fk_related_model_id?: string; type?: string; options?: { title: string; color?: string }[] } | undefined;
  if (isLink(c) && opts) field.options = { related_table_id: opts.fk_related_model_id, relation_type: opts.type };
  else if (opts?.options) field.options = { choices: opts.options.map((o) => ({ title: o.title, ...(o.color ? { color: o.color } : {}) })) };
  return field as { id: string; table_id: string; title: string; type: string; options?: unknown };
}

/** A table with its views and fields (system fields left out, as NocoDB's v3 does). */
export function presentTableV3(row: TableRow, columns: Column[], views: View[]) {
  const display = columns.find((c) => c.pv);
  return {
    ...presentTableSummaryV3(row), source_id: row.source_id,
    views: views.map((v) => ({ id: v.id, title: v.title, view_type: VIEW_TYPES[Number(v.type)] ?? String(v.type) })),
    ...(display ? { display_field_id: display.id } : {}),
    fields: columns.filter((c) => !c.system).map(presentFieldV3),
  };
}
