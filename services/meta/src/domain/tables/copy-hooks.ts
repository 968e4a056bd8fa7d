import type { MetaPorts } from '../../ports';
import type { TableCopy } from './table-copy';

/**
 * Asks the hooks service to copy the hooks of the copied tables onto the
 * copies (one hooks transaction: all or none). Called as the last step inside
 * the metadata transaction that records the copies, so a failure here rolls
 * them back; returns the undo for the caller to run if that transaction then
 * fails to commit (the copies' table ids never existed, so the hooks it
 * removes are exactly the ones copied).
 */
export async function copyHooksOf(ports: MetaPorts, baseId: string, copies: TableCopy[]): Promise<() => Promise<void>> {
  const { hooks } = ports.clients;
  const tables = copies.map((c) => ({ from: c.fromTableId, to: c.row.id }));
  const columns = Object.fromEntries(copies.flatMap((c) => [...c.columnMap.entries()]));
  await hooks.hooksCopy({ body: { baseId, tables, columns } });
  return async () => {
    await hooks.hooksDeleteOfTables({ body: { tableIds: tables.map((t) => t.to) } })
      .catch((err: unknown) => ports.logger.warn({ err, baseId }, 'could not remove the hooks of a copy that was rolled back'));
  };
}
