import type { Knex } from 'knex';
import { listColumns } from '../../repositories/column.repository';
import { listViewColumns, listViewsOf } from '../../repositories/view.repository';
import { listSorts } from '../../repositories/sort.repository';
import { listFiltersOfViews } from '../../repositories/filter.repository';
import type { TableRow } from '../../repositories/table.repository';
import { presentView, publicView } from '../../presenters/view.presenter';
import { presentTable } from '../../presenters/table.presenter';
import type { ViewInfo } from '@tabula/contracts';

/** The views of a table with their columns, sorts and filters. */
export async function loadViews(db: Knex, tableId: string): Promise<(ViewInfo & Record<string, unknown>)[]> {
  const views = await listViewsOf(db, [tableId]);
  const ids = views.map((v) => v.id);
  const [columns, sorts, filters] = await Promise.all([listViewColumns(db, ids), listSorts(db, ids), listFiltersOfViews(db, ids)]);
  return views.map((v) => presentView(
    v, columns.filter((c) => c.fk_view_id === v.id), sorts.filter((s) => s.fk_view_id === v.id), filters.filter((f) => f.fk_view_id === v.id),
  ));
}

/** The full table: columns, columnsById and views (compat-notes). */
export async function tableDetail(db: Knex, table: TableRow) {
  const [columns, views] = await Promise.all([listColumns(db, table.id), loadViews(db, table.id)]);
  return presentTable(table, columns, views.map((v) => publicView(v)));
}
