import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { newId } from '@tabula/db';
import { isLinkUidt } from '@tabula/query';
import { findColumn } from '../../repositories/column.repository';
import { deleteSort as deleteRow, findSort, insertSort, listSorts as listRows, nextSortOrder, shiftSorts, updateSort as updateRow } from '../../repositories/sort.repository';
import type { ViewRow } from '../../repositories/view.repository';
import { enqueueViewEvent } from '../../events/meta-event.producer';
import { presentSort } from '../../presenters/view.presenter';
import { requireView } from '../access';
import { ensureViewIndexes } from '../tables/table-indexes';
import { createSortSchema, singlePage, updateSortSchema } from '@tabula/contracts';

async function checkSortColumn(ports: MetaPorts, view: ViewRow, columnId: string, dir: string): Promise<void> {
  const column = await findColumn(ports.db, columnId);
  if (!column || column.fk_model_id !== view.fk_model_id) throw errors.notFound('ERR_FIELD_NOT_FOUND', `Field '${columnId}' not found`);
  if (dir.startsWith('count-') && !isLinkUidt(column.uidt)) {
    throw errors.badRequest(`Direction '${dir}' applies only to link columns; '${column.title}' is ${column.uidt}`);
  }
}

async function sortScope(ports: MetaPorts, principal: Principal, sortId: string, action: 'base.read' | 'schema.write') {
  const sort = await findSort(ports.db, sortId);
  // Another tenant's sort answers like a missing sort (not with its view's id).
  const hidden = () => errors.notFound('ERR_SORT_NOT_FOUND', `Sort '${sortId}' not found`);
  if (!sort) throw hidden();
  const scope = await requireView(ports, principal, sort.fk_view_id, action, hidden);
  return { ...scope, sort };
}

/** `{list, pageInfo}` of a view's sorts, by order. */
export async function listSorts(ports: MetaPorts, principal: Principal, viewId: string) {
  const { view, source } = await requireView(ports, principal, viewId, 'base.read');
  return singlePage((await listRows(ports.db, [view.id])).map((s) => presentSort(s, view, source.id)));
}

/** Adds a sort: order = next in creation sequence, or 1 with push_to_top. */
export async function createSort(ports: MetaPorts, principal: Principal, viewId: string, input: z.infer<typeof createSortSchema>) {
  const scope = await requireView(ports, principal, viewId, 'schema.write');
  const { view, source } = scope;
  await checkSortColumn(ports, view, input.fk_column_id, input.direction);
  const id = newId('so');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    let order = await nextSortOrder(trx, view.id);
    if (input.push_to_top) { await shiftSorts(trx, view.id); order = 1; }
    await insertSort(trx, { id, fk_view_id: view.id, fk_column_id: input.fk_column_id, direction: input.direction, order, fk_level_id: input.fk_level_id ?? null });
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  await ensureViewIndexes(ports, scope, [input.fk_column_id]);
  return presentSort((await findSort(ports.db, id))!, view, source.id);
}

/** One sort. */
export async function getSort(ports: MetaPorts, principal: Principal, sortId: string) {
  const { sort, view, source } = await sortScope(ports, principal, sortId, 'base.read');
  return presentSort(sort, view, source.id);
}

/** Changes a sort's column or direction; returns the updated sort (spec). */
export async function updateSort(ports: MetaPorts, principal: Principal, sortId: string, input: z.infer<typeof updateSortSchema>) {
  const scope = await sortScope(ports, principal, sortId, 'schema.write');
  const { sort, view, source } = scope;
  await checkSortColumn(ports, view, input.fk_column_id ?? sort.fk_column_id, input.direction ?? sort.direction);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateRow(trx, sort.id, input);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  await ensureViewIndexes(ports, scope, [input.fk_column_id]);
  return presentSort((await findSort(ports.db, sort.id))!, view, source.id);
}

/** Removes a sort → `{success: true}`. */
export async function deleteSort(ports: MetaPorts, principal: Principal, sortId: string) {
  const { sort, view } = await sortScope(ports, principal, sortId, 'schema.write');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteRow(trx, sort.id);
    await enqueueViewEvent(trx, 'updated', view, principal);
  });
  return { success: true };
}
