import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { MetaPorts } from '../../ports';
import { listColumns } from '../../repositories/column.repository';
import { presentColumn } from '../../presenters/column.presenter';
import type { ColumnInScope, TableInScope } from '../scopes/meta-scopes';

/** One column. */
export function getColumn(scope: ColumnInScope) {
  return presentColumn(scope.value.column);
}

/** The optimistic-lock hash of a table's columns (changes with any column change). */
export async function columnsHashOf(db: Knex, tableId: string): Promise<string> {
  const columns = await listColumns(db, tableId);
  const digest = createHash('sha256');
  for (const c of columns) digest.update(JSON.stringify([c.id, c.title, c.column_name, c.uidt, c.updated_at, c.order, c.pv]));
  return digest.digest('hex');
}

/** `GET …/columns/hash`. */
export async function getColumnsHash(ports: MetaPorts, scope: TableInScope) {
  return { hash: await columnsHashOf(ports.db, scope.value.table.id) };
}
