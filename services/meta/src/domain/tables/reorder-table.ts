import { withOutbox } from '@tabula/events';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { updateTable } from '../../repositories/table.repository';
import { enqueueTableEvent } from '../../events/meta-event.producer';
import { requireTable } from '../access';

/** Moves a table to a new order position. */
export async function reorderTable(ports: MetaPorts, principal: Principal, tableId: string, order: number) {
  const { table } = await requireTable(ports, principal, tableId, 'schema.write');
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await updateTable(trx, table.id, { order });
    await enqueueTableEvent(trx, 'updated', table, principal);
  });
  return { success: true };
}
