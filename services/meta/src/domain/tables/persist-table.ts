import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import { newId } from '@tabula/db';
import { isPrimaryValueUidt } from '@tabula/query';
import { insertTable, type TableRow } from '../../repositories/table.repository';
import { insertColumns, type ColumnRow } from '../../repositories/column.repository';
import { insertView, insertViewColumns, type ViewRow } from '../../repositories/view.repository';
import { enqueueTableEvent, enqueueViewEvent } from '../../events/meta-event.producer';

/** Marks the first suitable non-system column as primary value, unless one is already marked. */
export function choosePrimaryValue(columns: ColumnRow[]): void {
  if (columns.some((c) => c.pv)) {
    let seen = false;
    for (const c of columns) if (c.pv) { c.pv = !seen; seen = true; }
    return;
  }
  const candidate = columns.find((c) => !c.system && !c.pk && isPrimaryValueUidt(c.uidt)) ?? columns.find((c) => c.pk);
  if (candidate) candidate.pv = true;
}

/** Inserts a view with every column shown (system columns hidden). */
export async function insertViewWithColumns(trx: Knex, view: Omit<ViewRow, 'created_at' | 'updated_at'>, columns: ColumnRow[]): Promise<void> {
  await insertView(trx, view);
  await insertViewColumns(trx, columns.map((c, i) => ({
    id: newId('nc'), fk_view_id: view.id, fk_column_id: c.id, show: !c.system, order: i + 1, width: view.type === 'grid' ? '200px' : null,
  })));
}

/** Stores a table's metadata, its columns and default Grid view, and enqueues the created events. */
export async function persistTable(trx: Knex, table: Omit<TableRow, 'created_at' | 'updated_at'>, columns: ColumnRow[], principal?: Principal): Promise<void> {
  choosePrimaryValue(columns);
  await insertTable(trx, table);
  await insertColumns(trx, columns);
  const view = { id: newId('vw'), fk_model_id: table.id, base_id: table.base_id, title: table.title, type: 'grid' as const, is_default: true, order: 1, meta: null };
  await insertViewWithColumns(trx, view, columns);
  await enqueueTableEvent(trx, 'created', table, principal);
  await enqueueViewEvent(trx, 'created', view, principal);
}
