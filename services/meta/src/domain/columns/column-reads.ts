import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { listColumns } from '../../repositories/column.repository';
import { presentColumn } from '../../presenters/column.presenter';
import { requireColumn, requireTable } from '../access';

/** One column. */
export async function getColumn(ports: MetaPorts, principal: Principal, columnId: string) {
  const { column } = await requireColumn(ports, principal, columnId, 'base.read');
  return presentColumn(column);
}

/** The optimistic-lock hash of a table's columns (changes with any column change). */
export async function columnsHashOf(db: Knex, tableId: string): Promise<string> {
  const columns = await listColumns(db, tableId);
  const digest = createHash('sha256');
  for (const c of columns) digest.update(JSON.stringify([c.id, c.title, c.column_name, c.uidt, c.updated_at, c.order, c.pv]));
  return digest.digest('hex');
}

/** `GET …/columns/hash`. */
export async function getColumnsHash(ports: MetaPorts, principal: Principal, tableId: string) {
  const { table } = await requireTable(ports, principal, tableId, 'base.read');
  return { hash: await columnsHashOf(ports.db, table.id) };
}
