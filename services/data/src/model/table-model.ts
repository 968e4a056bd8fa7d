import { appError } from '@tabula/http';
import type { ColumnInfo, TableContext, ViewInfo } from '@tabula/contracts';
import { isHiddenSystem, isVirtual } from './column-roles';
import { codeColumns, formulaColumns } from './formula-columns';
import { linkColumns } from './link-columns';
import { formulaVirtuals, relationColumns } from './relation-columns';

/**
 * A table as the data service uses it: its physical columns indexed by title,
 * name and id, its primary key, the columns a response shows, and the view
 * (when the route names one). Built once per cached table context.
 */
export interface TableModel {
  context: TableContext;
  /** Physical columns and Formula columns (computed, read-only) in table order. */
  columns: ColumnInfo[];
  byKey: Map<string, ColumnInfo>;
  primaryKeys: ColumnInfo[];
  /** Columns a list/read returns by default (no hidden system columns). */
  outputColumns: ColumnInfo[];
  /** nc_order, when the table has it. */
  orderColumn?: ColumnInfo;
}

/** Builds the model of a table context (pure; cached with the context). */
export function buildTableModel(context: TableContext): TableModel {
  const links = linkColumns(context);
  const relations = relationColumns(context, links);
  const virtuals = formulaVirtuals(context, [...links, ...relations]);
  const formulas = formulaColumns(context, virtuals);
  const readable = [...context.table.columns.filter((c) => !isVirtual(c)), ...formulas, ...links, ...relations];
  const columns = [...readable, ...codeColumns(context, readable, virtuals)].sort((a, b) => a.order - b.order);
  const byKey = new Map<string, ColumnInfo>();
  // Ids first, then names, then titles: a title wins when a name collides with another column's title.
  for (const c of columns) byKey.set(c.id, c);
  for (const c of columns) byKey.set(c.column_name, c);
  for (const c of columns) byKey.set(c.title, c);
  const primaryKeys = columns.filter((c) => c.pk);
  if (!primaryKeys.length) throw appError('ERR_TABLE_WITHOUT_PRIMARY_KEY', `Table '${context.table.title}' has no primary key`);
  return {
    context, columns, byKey, primaryKeys,
    outputColumns: columns.filter((c) => !isHiddenSystem(c)),
    orderColumn: columns.find((c) => c.column_name === 'nc_order'),
  };
}

/** Finds a view of the table by id or title, or 404 ERR_VIEW_NOT_FOUND. */
export function findView(model: TableModel, viewRef: string): ViewInfo {
  const views = model.context.table.views ?? [];
  const view = views.find((v) => v.id === viewRef) ?? views.find((v) => v.title === viewRef);
  if (!view) throw appError('ERR_VIEW_NOT_FOUND', `View '${viewRef}' not found`);
  return view;
}

/** The output columns of a view: hidden columns dropped (the primary key always stays). */
export function viewColumns(model: TableModel, view: ViewInfo | undefined): ColumnInfo[] {
  if (!view || !view.columns?.length) return model.outputColumns;
  const shown = new Map(view.columns.map((vc) => [vc.fk_column_id, vc]));
  return model.outputColumns
    .filter((c) => c.pk || shown.get(c.id)?.show !== false)
    .sort((a, b) => (shown.get(a.id)?.order ?? a.order) - (shown.get(b.id)?.order ?? b.order));
}
