import type { MetaPorts } from '../../ports';
import type { TableInScope } from '../scopes/meta-scopes';
import { tableDetail } from './table-detail';

/** The full table (columns, columnsById, views). */
export async function getTable(ports: MetaPorts, scope: TableInScope) {
  return tableDetail(ports.db, scope.value.table);
}
