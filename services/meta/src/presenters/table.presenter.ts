import type { PublicView } from './view.presenter';
import type { TableRow } from '../repositories/table.repository';
import type { ColumnRow } from '../repositories/column.repository';
import { presentColumn } from './column.presenter';

/** Table row → list entry (no columns). */
export function presentTableSummary(row: TableRow) {
  return {
    id: row.id, base_id: row.base_id, source_id: row.source_id, table_name: row.table_name, title: row.title,
    type: row.type, meta: row.meta ?? {}, description: row.description, order: Number(row.order), enabled: true,
    created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** Table row + columns + views → the full table (compat-notes: columns, columnsById, views). */
export function presentTable(row: TableRow, columns: ColumnRow[], views: PublicView[]) {
  const presented = columns.map(presentColumn);
  return {
    ...presentTableSummary(row), columns: presented,
    columnsById: Object.fromEntries(presented.map((c) => [c.id, c])), views,
  };
}
