import { withOutbox } from '@tabula/events';
import { z } from 'zod';
import { errors } from '@tabula/http';
import type { MetaPorts } from '../../ports';
import { deleteView as deleteViewRow, updateView as updateViewRow, type ViewRow } from '../../repositories/view.repository';
import { enqueueViewEvent } from '../../events/meta-event.producer';
import type { TableInScope, ViewInScope } from '../scopes/meta-scopes';
import { loadViews } from '../tables/table-detail';
import { viewBodySchema } from '@tabula/contracts';
import { publicView } from '../../presenters/view.presenter';

/** A table's views with their columns, sorts and filters. */
export async function listViews(ports: MetaPorts, scope: TableInScope) {
  return { list: (await loadViews(ports.db, scope.value.table.id)).map((v) => publicView(v)) };
}

/** Renames a view or changes its meta. */
export async function updateView(ports: MetaPorts, scope: ViewInScope, input: Partial<z.infer<typeof viewBodySchema>>) {
  const { value: { view }, principal } = scope;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    const patch: Partial<ViewRow> = { updated_at: trx.fn.now() as unknown as Date };
    if (input.title !== undefined) patch.title = input.title;
    if (input.meta !== undefined) patch.meta = input.meta;
    await updateViewRow(trx, view.id, patch);
    await enqueueViewEvent(trx, 'updated', { ...view, title: input.title ?? view.title }, principal);
  });
  return publicView((await loadViews(ports.db, view.fk_model_id)).find((v) => v.id === view.id)!);
}

/** Deletes a view (never the default one). */
export async function deleteView(ports: MetaPorts, scope: ViewInScope) {
  const { value: { view }, principal } = scope;
  if (view.is_default) throw errors.badRequest('The default view cannot be deleted');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteViewRow(trx, view.id);
    await enqueueViewEvent(trx, 'deleted', view, principal);
  });
  return true;
}
