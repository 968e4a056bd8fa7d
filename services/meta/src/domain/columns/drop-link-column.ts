import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import type { Principal } from '@tabula/auth';
import { deleteColumn as deleteRow, findColumn, linkColumnsOfBase, linkColumnsThrough, listColumns, lookupRollupColumnsOfBase, type ColumnRow } from '../../repositories/column.repository';
import { deleteTable as deleteTableRow, findTable } from '../../repositories/table.repository';
import { enqueueColumnEvent, enqueueTableEvent } from '../../events/meta-event.producer';
import { dropForeignKey } from '../../ddl/link-ddl';
import { dropPhysicalTable } from '../../ddl/table-ddl';
import type { SourceHandle } from '../../ddl/dialect';
import { formulasUsing } from './formula-column';
import { isLink, linkOf } from './link-column';

/** The link columns of a base (any table) that belong to the same relation as `column`, itself included. */
async function relationColumns(trx: Knex, column: ColumnRow): Promise<ColumnRow[]> {
  const link = linkOf(column);
  const all = await linkColumnsOfBase(trx, column.base_id);
  return all.filter((c) => {
    const other = linkOf(c);
    if (link.type === 'mm') return other.type === 'mm' && other.fk_mm_model_id === link.fk_mm_model_id;
    return other.type !== 'mm' && other.fk_child_column_id === link.fk_child_column_id;
  });
}

async function refuseIfUsed(trx: Knex, columns: ColumnRow[]): Promise<void> {
  for (const c of columns) {
    const using = formulasUsing(c.id, await listColumns(trx, c.fk_model_id)).filter((f) => !columns.some((x) => x.id === f.id));
    if (using.length) {
      const table = await findTable(trx, c.fk_model_id);
      throw errors.badRequest(`Link '${c.title}' of table '${table?.title ?? c.fk_model_id}' is used by formula ${using.map((f) => `'${f.title}'`).join(', ')}: change or delete the formula first`);
    }
  }
}

async function dropKeyColumn(ddl: SourceHandle, trx: Knex, fkId: string, principal: Principal): Promise<void> {
  const fk = await findColumn(trx, fkId);
  const table = fk ? await findTable(trx, fk.fk_model_id) : undefined;
  if (!fk || !table) return;
  await dropForeignKey(ddl, table.table_name, { columnId: fk.id, columnName: fk.column_name!, unique: fk.unique });
  await deleteRow(trx, fk.id);
  await enqueueColumnEvent(trx, 'deleted', fk, principal);
}

async function dropJunction(ddl: SourceHandle, trx: Knex, junctionId: string, principal: Principal): Promise<void> {
  const junction = await findTable(trx, junctionId);
  if (!junction) return;
  await dropPhysicalTable(ddl, junction.table_name);
  await deleteTableRow(trx, junction.id);
  await enqueueTableEvent(trx, 'deleted', junction, principal);
}

/**
 * Drops a link column inside the caller's transactions, with everything its
 * relation created: the reverse column, and the foreign key column or the
 * junction table. Refused when a formula uses one of the link columns.
 */
export async function dropLinkIn(ddl: SourceHandle, trx: Knex, column: ColumnRow, principal: Principal): Promise<void> {
  const columns = await relationColumns(trx, column);
  await refuseIfUsed(trx, columns);
  const link = linkOf(column);
  for (const c of await dependentsOf(trx, column.base_id, columns.map((x) => x.id), 'fk_relation_column_id')) {
    await deleteRow(trx, c.id);
    await enqueueColumnEvent(trx, 'deleted', c, principal);
  }
  for (const c of columns) {
    await deleteRow(trx, c.id);
    await enqueueColumnEvent(trx, 'deleted', c, principal);
  }
  if (link.type === 'mm' && link.fk_mm_model_id) await dropJunction(ddl, trx, link.fk_mm_model_id, principal);
  else await dropKeyColumn(ddl, trx, link.fk_child_column_id, principal);
}

/** Lookup/Rollup columns of a base whose colOptions name one of the columns under `key`. */
export async function dependentsOf(trx: Knex, baseId: string, ids: string[], key: string): Promise<ColumnRow[]> {
  const rows = await lookupRollupColumnsOfBase(trx, baseId);
  return rows.filter((c) => ids.includes(String((c.col_options ?? {})[key])));
}

/** Refuses to delete a junction table on its own (its link columns would dangle). */
export async function refuseJunctionDelete(trx: Knex, tableId: string): Promise<void> {
  const links = await linkColumnsThrough(trx, tableId);
  if (links.length) {
    throw errors.badRequest(`Table is the junction of link ${links.map((c) => `'${c.title}'`).join(', ')}: delete the link column instead`);
  }
}

/** Drops every relation of a table (before the table itself goes): links to it elsewhere disappear with it. */
export async function dropLinksOfTable(ddl: SourceHandle, trx: Knex, tableId: string, principal: Principal): Promise<void> {
  for (;;) {
    const link = (await listColumns(trx, tableId)).find(isLink);
    if (!link) return;
    await dropLinkIn(ddl, trx, link, principal);
  }
}
