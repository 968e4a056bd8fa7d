import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { isLinkUidt } from '@tabula/query';
import { findColumn } from '../../repositories/column.repository';
import { deleteSort as deleteRow, findSort, insertSort, listSorts as listRows, nextSortOrder, shiftSorts, updateSort as updateRow } from '../../repositories/sort.repository';
import type { ViewRow } from '../../repositories/view.repository';
import { enqueueViewEvent } from '../../events/meta-event.producer';
import { presentSort } from '../../presenters/view.presenter';
import type { SortInScope, ViewInScope } from '../scopes/meta-scopes';
import { ensureViewIndexes } from '../tables/table-indexes';
import { createSortSchema, singlePage, updateSortSchema } from '@tabula/contracts';

async function checkSortColumn(ports: MetaPorts, view: ViewRow, columnId: string, dir: string): Promise<void> {
  const column = await findColumn(ports.db, columnId);
  if (!column || column.fk_model_id !== view.fk_model_id) throw errors.notFound('ERR_FIELD_NOT_FOUND', `Field '${columnId}' not found`);
  if (dir.startsWith('count-') && !isLinkUidt(column.uidt)) {
    throw errors.badRequest(`Direction '${dir}' applies only to link columns; '${column.title}' is ${column.uidt}`);
  }
}

/** `{list, pageInfo}` of a view's sorts, by order. */
export async function listSorts(ports: MetaPorts, scope: ViewInScope) {
  const { view, source } = scope.value;
  return singlePage((await listRows(ports.db, [view.id])).map((s) => presentSort(s, view, source.id)));
}

/** Adds a sort: order = next in creation sequence, or 1 with push_to_top. */
export async function createSort(ports: MetaPorts, scope: ViewInScope, input: z.infer<typeof createSortSchema>) {
  const { value: { view, source }, principal } = scope;
  await checkSortColumn(ports, view, input.fk_column_id, input.direction);
  const id = newId('so');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    let order = await nextSortOrder(trx, view.id);
    if (input.push_to_top) { await shiftSorts(trx, view.id); order = 1; }
    await insertSort(trx, { id, fk_view_id: view.id, fk_column_id: input.fk_column_id, direction: input.direction, order, fk_level_id: input.fk_level_id ?? null });
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  await ensureViewIndexes(ports, scope.value, [input.fk_column_id]);
  return presentSort((await findSort(ports.db, id))!, view, source.id);
}

/** One sort. */
export function getSort(scope: SortInScope) {
  const { sort, view, source } = scope.value;
  return presentSort(sort, view, source.id);
}

/** Changes a sort's column or direction; returns the updated sort (spec). */
export async function updateSort(ports: MetaPorts, scope: SortInScope, input: z.infer<typeof updateSortSchema>) {
  const { value: { sort, view, source }, principal } = scope;
  await checkSortColumn(ports, view, input.fk_column_id ?? sort.fk_column_id, input.direction ?? sort.direction);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateRow(trx, sort.id, input);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  await ensureViewIndexes(ports, scope.value, [input.fk_column_id]);
  return presentSort((await findSort(ports.db, sort.id))!, view, source.id);
}

/** Removes a sort → `{success: true}`. */
export async function deleteSort(ports: MetaPorts, scope: SortInScope) {
  const { value: { sort, view }, principal } = scope;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteRow(trx, sort.id);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  return { success: true };
}
