import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { inMetaTransaction } from '../lib/unit-of-work';
import { deleteTable as deleteRow } from '../repositories/table.repository';
import { enqueueTableEvent } from '../events/meta-event.producer';
import { dropPhysicalTable } from '../ddl/table-ddl';
import { requireTable } from './access';

/**
 * Drops the physical table, then removes its metadata and enqueues
 * `meta.table.deleted` in one transaction (comments and hooks rely on that
 * event, so it goes through the outbox).
 */
export async function deleteTable(ports: MetaPorts, principal: Principal, tableId: string): Promise<boolean> {
  const { table, handle } = await requireTable(ports, principal, tableId, 'schema.write');
  await dropPhysicalTable(handle, table.table_name);
  await inMetaTransaction(ports, async (trx) => {
    await deleteRow(trx, table.id);
    await enqueueTableEvent(trx, 'deleted', table, principal);
  });
  return true;
}
