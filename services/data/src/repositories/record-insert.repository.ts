import type { Knex } from 'knex';
import type { ColumnInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import { insertStampedColumns, type DbRow } from '../model/record-writer';
import type { KeyWhere } from '../model/row-id';
import { tableOf, type Db } from './records.repository';
import { formulaPlanOf } from '../model/formula-columns';
import { linkPlanOf } from '../model/link-columns';
import { relationPlanOf } from '../model/relation-columns';

/** Stored columns to return (formula and link values are computed by SELECT, never returned by INSERT). */
function names(columns: ColumnInfo[]): string[] {
  return columns.filter((c) => !formulaPlanOf(c) && !linkPlanOf(c) && !relationPlanOf(c)).map((c) => c.column_name);
}

/**
 * Inserts rows and answers them as stored (the `returning` columns plus the
 * keys), in insertion order. pg: rows with one key set go in as one JSON
 * parameter ({@link rowsSource}: one statement, no 65535-parameter
 * cap, no per-value binding cost); otherwise a multi-row INSERT … RETURNING.
 * mysql2 has no RETURNING: rows go one by one and only keys come back.
 */
export async function insertRows(db: Db, handle: TableHandle, rows: DbRow[], returning: ColumnInfo[]): Promise<DbRow[]> {
  const pkNames = handle.model.primaryKeys.map((p) => p.column_name);
  const cols = [...new Set([...pkNames, ...names(returning)])];
  if (handle.source.dialect === 'mysql2') return insertOneByOne(db, handle, rows, pkNames);
  const keys = Object.keys(rows[0] ?? {});
  const uniform = keys.length > 0 && rows.every((r) => sameKeys(r, keys));
  if (handle.source.dialect === 'pg' && uniform) return insertJson(db, handle, rows, keys, cols);
  const out: DbRow[] = [];
  const width = Math.max(1, new Set(rows.flatMap((r) => Object.keys(r))).size);
  const chunk = Math.max(1, Math.floor(30_000 / width));
  for (let i = 0; i < rows.length; i += chunk) {
    out.push(...((await tableOf(db, handle).insert(rows.slice(i, i + chunk)).returning(cols)) as DbRow[]));
  }
  return out;
}

function sameKeys(row: DbRow, keys: string[]): boolean {
  const own = Object.keys(row);
  return own.length === keys.length && keys.every((k) => k in row);
}

async function insertJson(db: Db, handle: TableHandle, rows: DbRow[], keys: string[], cols: string[]): Promise<DbRow[]> {
  const table = handle.source.schema ? [handle.source.schema, handle.model.context.table.table_name] : [handle.model.context.table.table_name];
  const tableSql = table.map(() => '??').join('.');
  const list = keys.map(() => '??').join(', ');
  const ret = cols.map(() => '??').join(', ');
  const src = rowsSource(handle, rows, keys, table);
  // WITH ORDINALITY + ORDER BY keeps RETURNING in the order of the JSON array.
  const sql = `insert into ${tableSql} (${list}) select ${src.select} from ${src.from}
    order by ${src.order} returning ${ret}`;
  const res = await db.raw(sql, [...table, ...keys, ...src.selectBindings, ...src.fromBindings, ...cols]);
  return res.rows as DbRow[];
}

/**
 * The rows of an INSERT … SELECT as SQL, from one JSON array parameter, in
 * the array's order ({@link RowsSource.order}): `json_populate_recordset(…)
 * with ordinality as r`, ordered by `r.ordinality`. A table with a column
 * named `ordinality` makes that name ambiguous (every JSON insert into it
 * failed): there each element goes through `json_array_elements … with
 * ordinality as e("__row", "__ord")` and `json_populate_record` (alias `r`),
 * whose position has its own alias. Only there: per element is slower
 * (median 22.4 against 20.1 ms of PostgreSQL time for a 1,000-row bulk
 * statement, alternated runs).
 * A request stamps every row with the same created/updated time and user
 * (record-writer.ts); when a batch of several rows does, those columns come
 * once from a one-row
 * `json_populate_record` (alias `s`) instead of from every row: the same
 * conversion to the column's type, and a bulk batch's parameter about half
 * as long (less to serialise, send and parse per row).
 */
export interface RowsSource {
  /** The SELECT list, one `r.??` or `s.??` per key in `keys` order (identifiers in selectBindings). */
  select: string;
  selectBindings: string[];
  /** The FROM items (their bindings in fromBindings). */
  from: string;
  fromBindings: Knex.RawBinding[];
  /** The keys taken from `s` (part of a prepared statement's cache key: they change the SQL). */
  shared: string[];
  /** The input position of a row (ORDER BY it to insert and return rows in the array's order). */
  order: string;
}

export function rowsSource(handle: TableHandle, rows: DbRow[], keys: string[], table: string[]): RowsSource {
  const tableSql = table.map(() => '??').join('.');
  const shared = sharedKeys(handle, rows, keys);
  const isShared = new Set(shared);
  const perRow = shared.length ? keys.filter((k) => !isShared.has(k)) : keys;
  const param = rowsJsonParam(handle, rows, perRow);
  const clash = handle.model.byKey.has('ordinality');
  const from = clash
    ? `json_array_elements(?::json) with ordinality as e("__row", "__ord") cross join lateral json_populate_record(null::${tableSql}, e."__row") as r`
    : `json_populate_recordset(null::${tableSql}, ?::json) with ordinality as r`;
  const fromBindings: Knex.RawBinding[] = clash ? [param, ...table] : [...table, param];
  const order = clash ? 'e."__ord"' : 'r.ordinality';
  if (!shared.length) return { select: keys.map(() => 'r.??').join(', '), selectBindings: keys, from, fromBindings, shared, order };
  const one: DbRow = {};
  for (const k of shared) one[k] = rows[0][k];
  return {
    select: keys.map((k) => (isShared.has(k) ? 's.??' : 'r.??')).join(', '),
    selectBindings: keys,
    from: `${from} cross join json_populate_record(null::${tableSql}, ?::json) as s`,
    fromBindings: [...fromBindings, ...table, JSON.stringify(one)],
    shared,
    order,
  };
}

/** Stamped columns that hold one value (a string) in every row of a batch of two or more. */
function sharedKeys(handle: TableHandle, rows: DbRow[], keys: string[]): string[] {
  if (rows.length < 2) return [];
  const stamped = insertStampedColumns(handle.model);
  const first = rows[0];
  return keys.filter((k) => stamped.has(k) && typeof first[k] === 'string' && rows.every((r) => r[k] === first[k]));
}

/**
 * Rows as the JSON array text {@link rowsSource} reads (one parameter for
 * any number of rows), with only `keys` when a row holds more.
 */
export function rowsJsonParam(handle: TableHandle, rows: DbRow[], keys: string[]): string {
  // json/jsonb columns hold JSON text from the coercer: embed it as JSON, not as a JSON string.
  const jsonKeys = keys.filter((k) => /json/i.test(handle.model.byKey.get(k)?.dt ?? ''));
  const subset = rows.length > 0 && Object.keys(rows[0]).length !== keys.length;
  if (!jsonKeys.length) {
    // Every value is a scalar here: a property list leaves out the other keys without copying rows.
    return subset ? JSON.stringify(rows, keys) : JSON.stringify(rows);
  }
  return JSON.stringify(rows.map((r) => {
    const copy: DbRow = {};
    for (const k of keys) copy[k] = r[k];
    for (const k of jsonKeys) if (typeof copy[k] === 'string') copy[k] = JSON.parse(copy[k] as string);
    return copy;
  }));
}

/** True when every row sets the same columns (one JSON parameter fits them all). */
export function uniformKeys(rows: DbRow[]): string[] | undefined {
  const keys = Object.keys(rows[0] ?? {});
  return keys.length > 0 && rows.every((r) => sameKeys(r, keys)) ? keys : undefined;
}

async function insertOneByOne(db: Db, handle: TableHandle, rows: DbRow[], pkNames: string[]): Promise<DbRow[]> {
  const out: DbRow[] = [];
  for (const row of rows) {
    const [id] = await tableOf(db, handle).insert(row);
    out.push(pkNames.length === 1 && row[pkNames[0]] === undefined ? { [pkNames[0]]: Number(id) } : pickKey(row, pkNames));
  }
  return out;
}

function pickKey(row: DbRow, pkNames: string[]): KeyWhere {
  return Object.fromEntries(pkNames.map((n) => [n, row[n] as string | number]));
}
