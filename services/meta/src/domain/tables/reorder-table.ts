import { withOutbox } from '@tabula/events';
import type { MetaPorts } from '../../ports';
import { updateTable } from '../../repositories/table.repository';
import { enqueueTableEvent } from '../../events/meta-event.producer';
import type { TableInScope } from '../scopes/meta-scopes';

/** Moves a table to a new order position. */
export async function reorderTable(ports: MetaPorts, scope: TableInScope, order: number) {
  const { value: { table }, principal } = scope;
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateTable(trx, table.id, { order });
    await enqueueTableEvent(trx, 'updated', table, principal);
  });
  return { success: true };
}
