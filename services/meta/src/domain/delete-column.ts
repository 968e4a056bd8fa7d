import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { inSourceAndMetaTransaction } from '../lib/source-transaction';
import { deleteColumn as deleteRow, type ColumnRow } from '../repositories/column.repository';
import { enqueueColumnEvent } from '../events/meta-event.producer';
import { dropPhysicalColumn } from '../ddl/column-ddl';
import type { SourceHandle } from '../ddl/dialect';
import { requireColumn } from './access';

/** Refuses to drop what the table cannot live without. */
export function assertDroppable(column: ColumnRow): void {
  if (column.pk || column.system) throw errors.badRequest(`System column '${column.title}' cannot be deleted`);
  if (column.pv) throw errors.badRequest(`Primary value column '${column.title}' cannot be deleted; set another primary value first`);
}

/** Drops one column's data and metadata inside the caller's transactions. */
export async function dropColumnIn(ddl: SourceHandle, trx: Knex, tableName: string, column: ColumnRow, principal: Principal): Promise<void> {
  assertDroppable(column);
  await dropPhysicalColumn(ddl, tableName, column);
  await deleteRow(trx, column.id);
  await enqueueColumnEvent(trx, 'deleted', column, principal);
}

/** Permanently removes a column and its data. */
export async function deleteColumn(ports: MetaPorts, principal: Principal, columnId: string) {
  const { column, table, handle } = await requireColumn(ports, principal, columnId, 'schema.write');
  assertDroppable(column);
  await inSourceAndMetaTransaction(ports, handle, (ddl, trx) => dropColumnIn(ddl, trx, table.table_name, column, principal));
  return { success: true };
}
