import { parseRowId, recordNotFound } from '../model/row-id';
import { viewColumns } from '../model/table-model';
import type { ApiRecord } from '../presenters/record.presenter';
import type { ColumnInfo, ViewInfo } from '@tabula/contracts';
import { recordJsonSql, recordV3JsonSql } from '../repositories/record-json.sql';
import { presentV3Record, type V3Record } from '../presenters/record-v3.presenter';
import type { TableHandle } from '../context/table-handle';
import { filtered, selectByKeys, selectRecordJsonByKey, tableOf, whereKeys } from '../repositories/records.repository';
import type { KeyWhere } from '../model/row-id';
import { readBack } from './record-reader';
import { outputColumns, readFilter, type ReadQuery } from './read-options';
import { openTable, type TableInScope } from './table-access';
import type { DataPorts } from '../ports';
import { signAttachments } from '../attachments/attachment-signer';
import { presentUserCells } from '../values/user-cells';

/** A record read by id: the API record's JSON text as the database made it, or the record presented in JS. */
export type ReadAnswer = { json: string } | { record: ApiRecord };

/**
 * GET .../{rowId}: one record (404 ERR_RECORD_NOT_FOUND). Under a view the row
 * must pass the view's filters and only its visible columns are returned;
 * `fields` picks columns (the primary key always comes).
 * On a default (PostgreSQL) source, when every column can be formatted in SQL (recordJsonSql:
 * the same JSON as the presenter, key order included), the database answers
 * the record's JSON text and it is sent as is: no row parsing, no presenting,
 * no JSON.stringify. Otherwise the row is read and presented in JS.
 */
export async function readRecord(ports: DataPorts, scope: TableInScope, rowId: string, query: Pick<ReadQuery, 'fields'> = {}): Promise<ReadAnswer> {
  return readShaped(ports, scope, rowId, query, 'v1');
}

/** A record read by id in NocoDB v3's shape: `{ id, fields }`, as JSON text the database made or as an object. */
export type ReadV3Answer = { json: string } | { record: V3Record };

/**
 * GET /api/v3/…/records/{recordId}: {@link readRecord} answering v3's
 * `{ id, fields }`. On the SQL path the database makes that JSON text itself
 * (recordV3JsonSql), so the record is sent as is, as v1's is: no parse and
 * reshape of v1's text; otherwise the presented record is reshaped.
 */
export async function readRecordV3(ports: DataPorts, scope: TableInScope, rowId: string, query: Pick<ReadQuery, 'fields'> = {}): Promise<ReadV3Answer> {
  const answer = await readShaped(ports, scope, rowId, query, 'v3');
  return 'json' in answer ? answer : { record: presentV3Record(openTable(scope).handle.model, answer.record) };
}

async function readShaped(ports: DataPorts, scope: TableInScope, rowId: string, query: Pick<ReadQuery, 'fields'>, shape: 'v1' | 'v3'): Promise<ReadAnswer> {
  const { handle, view } = openTable(scope);
  const key = parseRowId(handle.model, rowId);
  if (!key) throw recordNotFound(rowId);
  if (view && !(await existsInView(handle, view, key))) throw recordNotFound(rowId);
  const columns = query.fields ? outputColumns(handle, view, query) : viewColumns(handle.model, view);
  const json = await readJsonByKey(handle, key, columns, shape);
  if (json !== undefined) {
    if (json === null) throw recordNotFound(rowId);
    return { json };
  }
  return { record: await readPresented(ports, handle, key, columns, rowId) };
}

/** The record's API JSON (v1's or v3's) made by PostgreSQL; null when there is no such row; undefined when this table needs the JS path. */
async function readJsonByKey(handle: TableHandle, key: KeyWhere, columns: ColumnInfo[], shape: 'v1' | 'v3'): Promise<string | null | undefined> {
  const pks = handle.model.primaryKeys;
  // Default sources only, like the one-statement insert whose SQL formatting this shares (an external
  // database's column types come from introspection: those tables keep the presenter).
  if (handle.source.dialect !== 'pg' || !handle.source.sharesOutboxDatabase || pks.length !== 1) return undefined;
  const recordJson = shape === 'v3' ? recordV3JsonSql(columns, pks[0]) : recordJsonSql(columns);
  if (!recordJson) return undefined;
  return selectRecordJsonByKey(handle.source.knex, handle, columns, recordJson, key[pks[0].column_name] as string | number, shape);
}

async function readPresented(ports: DataPorts, handle: TableHandle, key: KeyWhere, columns: ColumnInfo[], rowId: string): Promise<ApiRecord> {
  const [record] = await readBack(handle.source.knex, handle, [key], columns);
  if (!record) throw recordNotFound(rowId);
  await signAttachments(ports, handle.baseId, columns, [record]);
  await presentUserCells(ports, handle.baseId, columns, [record]);
  return record;
}

/** GET .../{rowId}/exist: true when the row exists (and passes the view's filters). */
export async function recordExists(scope: TableInScope, rowId: string): Promise<boolean> {
  const { handle, view } = openTable(scope);
  const key = parseRowId(handle.model, rowId);
  if (!key) return false;
  if (view) return existsInView(handle, view, key);
  const rows = await selectByKeys(handle.source.knex, handle, [key], handle.model.primaryKeys);
  return rows.length > 0;
}

/** True when the keyed row passes the view's filters. */
async function existsInView(handle: TableHandle, view: ViewInfo, key: KeyWhere): Promise<boolean> {
  const qb = tableOf(handle.source.knex, handle).select(handle.model.primaryKeys.map((p) => p.column_name));
  return (await filtered(whereKeys(qb, handle, [key]), handle, readFilter(handle, view, {})).first()) !== undefined;
}
