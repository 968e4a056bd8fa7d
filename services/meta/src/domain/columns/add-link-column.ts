import type { Knex } from 'knex';
import type { Principal } from '@tabula/auth';
import { insertColumns, listColumns, type ColumnRow } from '../../repositories/column.repository';
import { nextTableOrder, type TableRow } from '../../repositories/table.repository';
import { insertViewColumns, viewIdsOf } from '../../repositories/view.repository';
import { enqueueColumnEvent } from '../../events/meta-event.producer';
import { addForeignKey, createJunctionTable } from '../../ddl/link-ddl';
import type { SourceHandle } from '../../ddl/dialect';
import { newId } from '@tabula/db';
import type { ColumnFields } from './column-input';
import { identifierFrom, uniqueName } from '../rules/name-rules';
import { persistTable } from '../tables/persist-table';
import {
  checkLinkTitle, foreignKeyRow, freeTitle, keyColumnOf, keyedTable, linkColumnRow, linkRequestOf,
  type LinkOptions, type LinkType,
} from './link-column';

interface Side {
  table: TableRow;
  columns: ColumnRow[];
  key: ColumnRow;
}

const REVERSE: Record<LinkType, LinkType> = { hm: 'bt', bt: 'hm', mm: 'mm', oo: 'oo' };

const nextOrder = (columns: ColumnRow[]) => Math.max(0, ...columns.map((c) => Number(c.order))) + 1;

async function sideOf(trx: Knex, table: TableRow): Promise<Side> {
  const columns = await listColumns(trx, table.id);
  return { table, columns, key: keyColumnOf(table, columns) };
}

async function storeColumns(trx: Knex, rows: ColumnRow[], principal: Principal): Promise<void> {
  await insertColumns(trx, rows);
  for (const row of rows) {
    const viewIds = await viewIdsOf(trx, row.fk_model_id);
    await insertViewColumns(trx, viewIds.map((v) => ({ id: newId('nc'), fk_view_id: v, fk_column_id: row.id, show: !row.system, order: row.order })));
    await enqueueColumnEvent(trx, 'created', row, principal);
  }
}

/** hm/bt/oo: a foreign key column in the child table referencing the parent's key. */
async function addKeyRelation(ddl: SourceHandle, trx: Knex, parent: Side, child: Side, unique: boolean): Promise<ColumnRow> {
  const fk = { ...foreignKeyRow(child.table, child.columns, parent.table, parent.key, nextOrder(child.columns)), unique };
  await addForeignKey(ddl, child.table.table_name, keyedTable(parent.table, parent.key), {
    columnId: fk.id, columnName: fk.column_name!, unique, onDelete: 'SET NULL',
  });
  child.columns.push(fk);
  return fk;
}

/** mm: a junction table (with its own metadata, `meta.mm`) whose two columns reference both keys. */
async function addJunction(ddl: SourceHandle, trx: Knex, self: Side, other: Side, principal: Principal) {
  const tableName = `_nc_m2m_${identifierFrom(`${self.table.table_name}_${other.table.table_name}`, 'link').slice(0, 40)}_${newId('m').slice(-6)}`;
  const junction: TableRow = {
    id: newId('m'), base_id: self.table.base_id, source_id: self.table.source_id, table_name: tableName, title: tableName, type: 'table',
    meta: { mm: true }, description: null, order: await nextTableOrder(trx, self.table.base_id), deleted: false,
    created_at: new Date(), updated_at: new Date(),
  };
  const selfName = `${self.table.table_name.slice(0, 56)}_id`;
  const otherName = uniqueName(`${other.table.table_name.slice(0, 56)}_id`, [selfName]);
  const keyRow = (name: string, order: number, key: ColumnRow): ColumnRow => ({
    id: newId('c'), fk_model_id: junction.id, base_id: junction.base_id, title: name, column_name: name, uidt: 'ForeignKey', dt: key.dt,
    dtxp: null, dtxs: null, pk: true, pv: false, rqd: true, unique: false, ai: false, au: false, system: false, cdf: null, meta: null,
    order, description: null, col_options: null,
  });
  const selfColumn = keyRow(selfName, 1, self.key);
  const otherColumn = keyRow(otherName, 2, other.key);
  await createJunctionTable(ddl, tableName, [
    { parent: keyedTable(self.table, self.key), fk: { columnId: selfColumn.id, columnName: selfName, unique: false, onDelete: 'CASCADE' } },
    { parent: keyedTable(other.table, other.key), fk: { columnId: otherColumn.id, columnName: otherName, unique: false, onDelete: 'CASCADE' } },
  ]);
  await persistTable(trx, junction, [selfColumn, otherColumn], principal);
  return { junction, selfColumn, otherColumn };
}

/** The pair of colOptions (this column, reverse column) of a new relation, creating what it needs. */
async function relationOptions(ddl: SourceHandle, trx: Knex, type: LinkType, self: Side, other: Side, principal: Principal): Promise<[LinkOptions, LinkOptions]> {
  const base = { virtual: false, fk_mm_model_id: null, fk_mm_child_column_id: null, fk_mm_parent_column_id: null };
  if (type === 'mm') {
    const { junction, selfColumn, otherColumn } = await addJunction(ddl, trx, self, other, principal);
    const mm = { fk_mm_model_id: junction.id };
    return [
      { ...base, ...mm, type, fk_related_model_id: other.table.id, fk_child_column_id: self.key.id, fk_parent_column_id: other.key.id,
        fk_mm_child_column_id: selfColumn.id, fk_mm_parent_column_id: otherColumn.id },
      { ...base, ...mm, type, fk_related_model_id: self.table.id, fk_child_column_id: other.key.id, fk_parent_column_id: self.key.id,
        fk_mm_child_column_id: otherColumn.id, fk_mm_parent_column_id: selfColumn.id },
    ];
  }
  const [parent, child] = type === 'bt' ? [other, self] : [self, other];
  const fk = await addKeyRelation(ddl, trx, parent, child, type === 'oo');
  const shared = { ...base, fk_child_column_id: fk.id, fk_parent_column_id: parent.key.id };
  await storeColumns(trx, [fk], principal);
  return [
    { ...shared, type, fk_related_model_id: other.table.id },
    { ...shared, type: REVERSE[type], fk_related_model_id: self.table.id },
  ];
}

/**
 * Adds a link column (hm, bt, mm, oo) inside the caller's transactions: the
 * foreign key or junction table, the column, and its reverse on the related
 * table. Returns the new column.
 */
export async function addLinkColumnIn(ddl: SourceHandle, trx: Knex, table: TableRow, fields: ColumnFields, principal: Principal): Promise<ColumnRow> {
  const { type, related } = await linkRequestOf(trx, table, fields as Record<string, unknown>);
  const self = await sideOf(trx, table);
  checkLinkTitle(fields.title, self.columns);
  const other = related.id === table.id ? self : await sideOf(trx, related);
  const [mine, theirs] = await relationOptions(ddl, trx, type, self, other, principal);
  const column = linkColumnRow(table, fields.uidt, fields.title, nextOrder(self.columns), mine, (fields.meta as ColumnRow['meta']) ?? null);
  // A required link makes sense where the key is this table's own column (bt, the child side of oo).
  column.rqd = !!fields.rqd && type === 'bt';
  self.columns.push(column);
  const reverseTitle = freeTitle(type === 'hm' || type === 'oo' ? table.title : `${table.title}List`, other.columns);
  const reverse = linkColumnRow(related, fields.uidt, reverseTitle, nextOrder(other.columns), theirs, type === 'oo' ? { bt: true } : null);
  await storeColumns(trx, [column, reverse], principal);
  return column;
}
