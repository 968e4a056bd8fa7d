import { withOutbox } from '@tabula/events';
import type { MetaPorts } from '../../ports';
import { deleteTable as deleteRow } from '../../repositories/table.repository';
import { enqueueTableEvent } from '../../events/meta-event.producer';
import { dropPhysicalTable } from '../../ddl/table-ddl';
import type { TableInScope } from '../scopes/meta-scopes';
import { inSourceAndMetaTransaction } from '../../sources/source-transaction';
import { dropLinksOfTable, refuseJunctionDelete } from '../columns/drop-link-column';

/**
 * Drops the table's relations (links to it elsewhere go too), then the physical table, then removes its metadata and enqueues
 * `meta.table.deleted` in one transaction (comments and hooks rely on that
 * event, so it goes through the outbox).
 */
export async function deleteTable(ports: MetaPorts, scope: TableInScope): Promise<boolean> {
  const { value: { table, handle }, principal } = scope;
  await refuseJunctionDelete(ports.db, table.id);
  await inSourceAndMetaTransaction(ports, handle, (ddl, trx) => dropLinksOfTable(ddl, trx, table.id, principal));
  await dropPhysicalTable(handle, table.table_name);
  await withOutbox(ports.db, ports.relay, async (trx) => {
    await deleteRow(trx, table.id);
    await enqueueTableEvent(trx, 'deleted', table, principal);
  });
  return true;
}
