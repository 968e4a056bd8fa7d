import type { Knex } from 'knex';
import { newId } from '@tabula/db';
import { listViewColumns, listViewsOf, insertView, insertViewColumns, deleteViewColumns } from '../../repositories/view.repository';
import { insertSort, listSorts } from '../../repositories/sort.repository';
import { insertFilter, listFiltersOfViews } from '../../repositories/filter.repository';

/**
 * Copies a table's views (settings, sorts, filters) onto its duplicate. The
 * duplicate's default view already exists, so the source's default view is
 * merged into it; column ids are mapped old → new.
 */
export async function copyViews(trx: Knex, fromTableId: string, toTable: { id: string; base_id: string }, columnMap: Map<string, string>): Promise<void> {
  const views = await listViewsOf(trx, [fromTableId]);
  const ids = views.map((v) => v.id);
  // one connection in a transaction: queries run one after the other
  const vcols = await listViewColumns(trx, ids);
  const sorts = await listSorts(trx, ids);
  const filters = await listFiltersOfViews(trx, ids);
  const targetDefault = (await listViewsOf(trx, [toTable.id])).find((v) => v.is_default)!;
  const viewMap = new Map<string, string>();
  for (const v of views) {
    if (v.is_default) {
      viewMap.set(v.id, targetDefault.id);
      await deleteViewColumns(trx, targetDefault.id);
    } else {
      viewMap.set(v.id, newId('vw'));
      await insertView(trx, { ...v, id: viewMap.get(v.id)!, fk_model_id: toTable.id, base_id: toTable.base_id, created_at: undefined, updated_at: undefined });
    }
  }
  await insertViewColumns(trx, vcols.filter((c) => columnMap.has(c.fk_column_id)).map((c) => ({
    ...c, id: newId('nc'), fk_view_id: viewMap.get(c.fk_view_id)!, fk_column_id: columnMap.get(c.fk_column_id)!,
  })));
  for (const s of sorts) {
    await insertSort(trx, { ...s, id: newId('so'), fk_view_id: viewMap.get(s.fk_view_id)!, fk_column_id: columnMap.get(s.fk_column_id)! });
  }
  const filterMap = new Map<string, string>(filters.map((f) => [f.id, newId('fi')]));
  // parents are created before children because order/created_at sort groups first within a view
  for (const f of [...filters].sort((a, b) => Number(!!a.fk_parent_id) - Number(!!b.fk_parent_id))) {
    await insertFilter(trx, {
      ...f, id: filterMap.get(f.id)!, fk_view_id: viewMap.get(f.fk_view_id!)!, base_id: toTable.base_id,
      fk_parent_id: f.fk_parent_id ? filterMap.get(f.fk_parent_id)! : null,
      fk_column_id: f.fk_column_id ? columnMap.get(f.fk_column_id) ?? null : null,
    });
  }
}
