import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import type { MetaPorts } from '../../ports';
import { inSourceAndMetaTransaction } from '../../sources/source-transaction';
import { deleteColumn as deleteRow, listColumns, type ColumnRow } from '../../repositories/column.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { dropPhysicalColumn } from '../../ddl/column-ddl';
import type { SourceHandle } from '../../ddl/dialect';
import type { ColumnInScope } from '../scopes/meta-scopes';
import { formulasUsing } from './formula-column';
import { isLink } from './link-column';
import { dependentsOf, dropLinkIn } from './drop-link-column';

/** Refuses to drop what the table cannot live without. */
export function assertDroppable(column: ColumnRow): void {
  if (column.pk || column.system) throw errors.badRequest(`System column '${column.title}' cannot be deleted`);
  if (column.pv) throw errors.badRequest(`Primary value column '${column.title}' cannot be deleted; set another primary value first`);
}

/** Drops one column's data and metadata inside the caller's transactions. */
export async function dropColumnIn(ddl: SourceHandle, trx: Knex, tableName: string, column: ColumnRow, principal: Principal): Promise<void> {
  assertDroppable(column);
  if (isLink(column)) return dropLinkIn(ddl, trx, column, principal);
  const targets = [...await dependentsOf(trx, column.base_id, [column.id], 'fk_lookup_column_id'), ...await dependentsOf(trx, column.base_id, [column.id], 'fk_rollup_column_id')];
  if (targets.length) throw errors.badRequest(`Column '${column.title}' is used by ${targets.map((c) => `${c.uidt} '${c.title}'`).join(', ')}: delete those first`);
  const using = formulasUsing(column.id, await listColumns(trx, column.fk_model_id));
  if (using.length) {
    throw errors.badRequest(`Column '${column.title}' is used by formula ${using.map((c) => `'${c.title}'`).join(', ')}: change or delete the formula first`);
  }
  await dropPhysicalColumn(ddl, tableName, column);
  await deleteRow(trx, column.id);
  await enqueueColumnEvent(trx, 'deleted', column, principal);
}

/** Permanently removes a column and its data. */
export async function deleteColumn(ports: MetaPorts, scope: ColumnInScope) {
  const { value: { column, table, handle }, principal } = scope;
  assertDroppable(column);
  await inSourceAndMetaTransaction(ports, handle, (ddl, trx) => dropColumnIn(ddl, trx, table.table_name, column, principal));
  return { success: true };
}
