import type { Knex } from 'knex';
import { errors } from '@tabula/http';
import { newId } from '@tabula/db';
import { isLinkUidt } from '@tabula/query';
import type { ColumnRow } from '../../repositories/column.repository';
import { findTable, type TableRow } from '../../repositories/table.repository';
import type { KeyedTable } from '../../ddl/link-ddl';
import { checkTitleFree } from './column-draft';
import { uniqueName } from '../rules/name-rules';

/** Relation kinds (NocoDB): has-many, belongs-to, many-to-many, one-to-one. */
export type LinkType = 'hm' | 'bt' | 'mm' | 'oo';

/** colOptions of a link column, named as NocoDB names them. */
export interface LinkOptions extends Record<string, unknown> {
  type: LinkType;
  fk_related_model_id: string;
  /** hm/bt/oo: the foreign key column (in the child table); mm: this table's key. */
  fk_child_column_id: string;
  /** hm/bt/oo: the parent table's key; mm: the related table's key. */
  fk_parent_column_id: string;
  fk_mm_model_id?: string | null;
  /** mm: the junction column referencing this table. */
  fk_mm_child_column_id?: string | null;
  /** mm: the junction column referencing the related table. */
  fk_mm_parent_column_id?: string | null;
  virtual: boolean;
}

/** True for LinkToAnotherRecord and Links columns. */
export function isLink(column: Pick<ColumnRow, 'uidt'>): boolean {
  return isLinkUidt(column.uidt);
}

/** The relation of a link column. */
export function linkOf(column: ColumnRow): LinkOptions {
  return column.col_options as unknown as LinkOptions;
}

/** What a link body asks for, checked: the type and the related table (same base and source). */
export interface LinkRequest {
  type: LinkType;
  related: TableRow;
}

/** Validates `{parentId, childId, type}` of a link body against the table it is added to. */
export async function linkRequestOf(trx: Knex, table: TableRow, body: Record<string, unknown>): Promise<LinkRequest> {
  const options = (body.colOptions ?? {}) as Record<string, unknown>;
  const type = body.type ?? options.type;
  if (!['hm', 'bt', 'mm', 'oo'].includes(String(type))) throw errors.badRequest(`${String(body.uidt)} column: link type must be one of hm, bt, mm, oo (got '${String(type)}')`);
  const parentId = body.parentId ?? table.id;
  if (parentId !== table.id) throw errors.badRequest('parentId must be the table the link column is added to');
  const childId = body.childId ?? options.fk_related_model_id;
  if (typeof childId !== 'string' || !childId) throw errors.badRequest('childId (the related table) is required');
  const related = await findTable(trx, childId);
  if (!related) throw errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${childId}' not found`);
  if (related.base_id !== table.base_id) throw errors.badRequest('Links across bases are not supported: both tables must belong to the same base');
  if (related.source_id !== table.source_id) throw errors.badRequest('Links across data sources are not supported: both tables must be on the same source');
  return { type: type as LinkType, related };
}

/** The primary key column of a table's columns (a link needs a single-column key). */
export function keyColumnOf(table: TableRow, columns: ColumnRow[]): ColumnRow {
  const pks = columns.filter((c) => c.pk);
  if (pks.length !== 1) throw errors.badRequest(`Table '${table.title}' needs a single-column primary key to be linked`);
  return pks[0];
}

/** A table's name and key for the DDL. */
export function keyedTable(table: TableRow, key: ColumnRow): KeyedTable {
  return { tableName: table.table_name, pkName: key.column_name!, pkDt: key.dt };
}

/** A title free in the table: the wanted one, else with a numeric suffix. */
export function freeTitle(wanted: string, columns: ColumnRow[]): string {
  return uniqueName(wanted.slice(0, 250), columns.map((c) => c.title));
}

/** Metadata of a link column (virtual: no physical column of its own). */
export function linkColumnRow(table: TableRow, uidt: string, title: string, order: number, options: LinkOptions, meta: ColumnRow['meta'] = null): ColumnRow {
  return {
    id: newId('c'), fk_model_id: table.id, base_id: table.base_id, title, column_name: null, uidt, dt: null, dtxp: null, dtxs: null,
    pk: false, pv: false, rqd: false, unique: false, ai: false, au: false, system: false, cdf: null, meta, order,
    description: null, col_options: options,
  };
}

/** Metadata of a foreign key column (system, hidden; NocoDB's `ForeignKey`). */
export function foreignKeyRow(table: TableRow, columns: ColumnRow[], parent: TableRow, key: ColumnRow, order: number): ColumnRow {
  const name = uniqueName(`${parent.table_name.slice(0, 56)}_id`, columns.map((c) => c.column_name ?? ''));
  return {
    id: newId('c'), fk_model_id: table.id, base_id: table.base_id, title: freeTitle(`${parent.title}_id`, columns), column_name: name,
    uidt: 'ForeignKey', dt: key.dt, dtxp: null, dtxs: null, pk: false, pv: false, rqd: false, unique: false, ai: false, au: false,
    system: true, cdf: null, meta: null, order, description: null, col_options: null,
  };
}

/** Checks the new link column's title. */
export function checkLinkTitle(title: string, columns: ColumnRow[]): void {
  checkTitleFree(title, columns);
}
