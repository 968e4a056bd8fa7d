import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { requireTable } from '../access';
import { tableDetail } from './table-detail';

/** The full table (columns, columnsById, views). */
export async function getTable(ports: MetaPorts, principal: Principal, tableId: string) {
  const { table } = await requireTable(ports, principal, tableId, 'base.read');
  return tableDetail(ports.db, table);
}
