import type { Knex } from 'knex';
import { applyFilter, applySort, type FilterGroup, type SortItem } from '@tabula/query';
import type { ColumnInfo } from '@tabula/contracts';
import type { TableHandle } from '../context/table-handle';
import type { KeyWhere } from '../model/row-id';
import type { DbRow } from '../model/record-writer';
import { selectItem } from '../model/formula-columns';
import { linkPlanOf } from '../model/link-columns';
import { lateralPageOf, lateralsNeeded } from '../model/page-laterals';
import { detachLinks } from './link.repository';
import { appError } from '@tabula/http';
import { cachedRead, cachedReadWithLast } from './sql-cache';
import type { SqlPart } from './record-json.sql';

export type { Db } from './db';
import type { Db } from './db';

/** What a page of rows is selected by. */
export interface RowQuery {
  filter: FilterGroup;
  sorts: SortItem[];
  columns: ColumnInfo[];
  limit: number;
  offset: number;
  /** Further restricts the rows (e.g. to the records linked to one row). */
  scope?: (qb: Knex.QueryBuilder) => void;
}

/** The table's query builder (schema-qualified on pg). */
export function tableOf(db: Db, handle: TableHandle): Knex.QueryBuilder {
  const name = handle.model.context.table.table_name;
  return handle.source.schema ? db.withSchema(handle.source.schema).from(name) : db.from(name);
}

function names(db: Db, columns: ColumnInfo[]): (string | Knex.Raw)[] {
  return columns.map((c) => selectItem(db, c));
}

/** Restricts a builder to the filter (all values bound, identifiers from metadata). */
export function filtered(qb: Knex.QueryBuilder, handle: TableHandle, filter: FilterGroup): Knex.QueryBuilder {
  return filter.children.length ? applyFilter(qb, filter, handle.index, handle.source.dialect) : qb;
}

/** User sorts, then nc_order, then the primary key (a stable order for paging). */
function ordered(db: Db, handle: TableHandle, qb: Knex.QueryBuilder, sorts: SortItem[]): Knex.QueryBuilder {
  applySort(qb, sorts, handle.source.dialect, { linkCount: (meta) => linkCountRaw(db, handle, meta.id) });
  if (handle.model.orderColumn) qb.orderBy(handle.model.orderColumn.column_name, 'asc');
  for (const pk of handle.model.primaryKeys) qb.orderBy(pk.column_name, 'asc');
  return qb;
}

/**
 * One page of rows, in a stable order. With `cacheKey` (a text that determines
 * the whole statement: the request's read parameters and page window) the
 * compiled SQL of a table without computed columns is reused (sql-cache.ts).
 */
export async function selectPage(db: Db, handle: TableHandle, q: RowQuery, cacheKey?: string): Promise<DbRow[]> {
  const laterals = handle.source.dialect === 'pg' ? lateralPageOf(handle.model) : null;
  const needed = laterals ? lateralsNeeded(laterals, q.columns) : [];
  if (!laterals || !needed.length) {
    const build = () => {
      const qb = filtered(tableOf(db, handle).select(names(db, q.columns)), handle, q.filter);
      q.scope?.(qb);
      return ordered(db, handle, qb, q.sorts).limit(q.limit).offset(q.offset);
    };
    if (cacheKey === undefined || q.scope) return build();
    return cachedRead<DbRow>(db, handle, `page\u0000${cacheKey}`, build);
  }
  // pg with link values: the page first, then one LEFT JOIN LATERAL per link over its rows (model/page-laterals).
  const name = handle.model.context.table.table_name;
  const inner = filtered(tableOf(db, handle).select(db.raw('??.*', [name])), handle, q.filter);
  q.scope?.(inner);
  ordered(db, handle, inner, q.sorts).limit(q.limit).offset(q.offset);
  const items = q.columns.map((c) => {
    const item = laterals.items.get(c);
    return item ? db.raw(`${item.value.sql} AS ??`, [...item.value.bindings, c.column_name]) : selectItem(db, c);
  });
  const outer = db.select(items).from(inner.as(name));
  for (const id of needed) {
    const join = laterals.joins.get(id)!;
    outer.joinRaw(join.sql, [...join.bindings]);
  }
  return ordered(db, handle, outer, q.sorts);
}

/** The count subquery of a link column, for count-asc/count-desc sorts. */
function linkCountRaw(db: Db, handle: TableHandle, columnId: string): Knex.Raw {
  const column = handle.model.columns.find((c) => c.id === columnId);
  const plan = column ? linkPlanOf(column) : undefined;
  if (!plan?.count) throw appError('ERR_INVALID_SORT', 'Count sorts apply to link columns only');
  return db.raw(plan.count.sql, [...plan.count.bindings]);
}

/** Exact number of rows matching the filter. */
export async function countRows(db: Db, handle: TableHandle, filter: FilterGroup, scope?: RowQuery['scope']): Promise<number> {
  const qb = filtered(tableOf(db, handle), handle, filter);
  scope?.(qb);
  const row = await qb.count({ n: '*' }).first();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/**
 * Rows matching the filter, counted up to `cap` + 1 at most (`count(*)` over a
 * `LIMIT cap + 1` subquery): the cost is bounded by `cap` index entries or rows
 * however many match. Answers `cap + 1` when there are more than `cap`.
 */
export async function countRowsUpTo(db: Db, handle: TableHandle, filter: FilterGroup, cap: number): Promise<number> {
  const inner = filtered(tableOf(db, handle).select(db.raw('1')), handle, filter).limit(cap + 1);
  const row = await db.count({ n: '*' }).from(inner.as('capped')).first();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/** The planner's row estimate of a pg table (`reltuples`; -1 before the first ANALYZE). */
export async function estimateRows(db: Db, handle: TableHandle): Promise<number | undefined> {
  if (handle.source.dialect !== 'pg') return undefined;
  const res = await db.raw(
    `select c.reltuples::float8 as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where c.relname = ? and s.nspname = coalesce(?, current_schema())`,
    [handle.model.context.table.table_name, handle.source.schema ?? null],
  );
  const n = Number(res.rows?.[0]?.n);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

/**
 * The planner's estimate of the rows matching a filter (pg `EXPLAIN`, no
 * scan): for large tables, where an exact filtered count would read much of
 * the table on every new filter.
 */
export async function estimateFilteredRows(db: Db, handle: TableHandle, filter: FilterGroup): Promise<number | undefined> {
  if (handle.source.dialect !== 'pg') return undefined;
  const { sql, bindings } = filtered(tableOf(db, handle).select(db.raw('1')), handle, filter).toSQL();
  const res = await db.raw(`explain (format json) ${sql}`, bindings as Knex.RawBinding[]);
  const n = Number(res.rows?.[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows']);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}

/** Rows by primary key (one query for any number of keys). */
export async function selectByKeys(db: Db, handle: TableHandle, keys: KeyWhere[], columns: ColumnInfo[], lock = false): Promise<DbRow[]> {
  if (!keys.length) return [];
  const pks = handle.model.primaryKeys;
  if (keys.length === 1 && pks.length === 1 && !lock) {
    // Read by id: the statement differs only by the key value; its text is compiled once per column list.
    const key = `byKey\u0000${columns.map((c) => c.id).join(',')}`;
    return cachedReadWithLast<DbRow>(db, handle, key, keys[0][pks[0].column_name], (value) =>
      tableOf(db, handle).select(names(db, columns)).whereIn(pks[0].column_name, [value as string | number]));
  }
  const qb = whereKeys(tableOf(db, handle).select(names(db, columns)), handle, keys);
  if (lock && handle.source.dialect !== 'sqlite3') qb.forUpdate();
  return qb;
}

/**
 * One row by its single-column key, as the API record's JSON text the database
 * makes (`recordJson`, record-json.sql.ts: v1's record, or v3's `{ id, fields }`
 * when `shape` is v3), or null when there is no such row.
 * Compiled once per column list, like read by id.
 */
export async function selectRecordJsonByKey(
  db: Db, handle: TableHandle, columns: ColumnInfo[], recordJson: SqlPart, value: string | number, shape: 'v1' | 'v3' = 'v1',
): Promise<string | null> {
  const pk = handle.model.primaryKeys[0].column_name;
  const key = `byKeyJson\u0000${shape}\u0000${columns.map((c) => c.id).join(',')}`;
  const rows = await cachedReadWithLast<{ j: string }>(db, handle, key, value, (v) =>
    tableOf(db, handle).select(db.raw(`${recordJson.sql}::text as j`, recordJson.bindings as Knex.RawBinding[])).whereIn(pk, [v as string | number]));
  return rows.length ? rows[0].j : null;
}

/** Adds `pk in (...)` (or an OR of composite keys). */
export function whereKeys(qb: Knex.QueryBuilder, handle: TableHandle, keys: KeyWhere[]): Knex.QueryBuilder {
  const pks = handle.model.primaryKeys;
  if (pks.length === 1) return qb.whereIn(pks[0].column_name, keys.map((k) => k[pks[0].column_name]));
  return qb.where((w) => { for (const k of keys) w.orWhere(k); });
}

/** Rows matching a filter, locked for an update/delete of all of them. */
export async function selectMatching(db: Db, handle: TableHandle, filter: FilterGroup, columns: ColumnInfo[]): Promise<DbRow[]> {
  const qb = filtered(tableOf(db, handle).select(names(db, columns)), handle, filter);
  if (handle.source.dialect !== 'sqlite3') qb.forUpdate();
  return qb;
}

/** Updates rows by key with the same values; answers how many changed. */
export async function updateByKeys(db: Db, handle: TableHandle, keys: KeyWhere[], values: DbRow): Promise<number> {
  if (!keys.length || !Object.keys(values).length) return 0;
  return whereKeys(tableOf(db, handle), handle, keys).update(values);
}

/** Deletes rows by key; answers how many went. */
export async function deleteByKeys(db: Db, handle: TableHandle, keys: KeyWhere[]): Promise<number> {
  if (!keys.length) return 0;
  if (handle.source.dialect === 'sqlite3') await detachLinks(db, handle, keys);
  return whereKeys(tableOf(db, handle), handle, keys).delete();
}

/** The largest nc_order (new rows go after it). */
export async function maxOrder(db: Db, handle: TableHandle): Promise<number> {
  const col = handle.model.orderColumn?.column_name;
  if (!col) return 0;
  const row = await tableOf(db, handle).max({ m: col }).first();
  return Number((row as { m?: unknown } | undefined)?.m ?? 0) || 0;
}

/** The nc_order of one row (insert `before`). */
export async function orderOf(db: Db, handle: TableHandle, key: KeyWhere): Promise<number | undefined> {
  const col = handle.model.orderColumn?.column_name;
  if (!col) return undefined;
  const row = await whereKeys(tableOf(db, handle).select(col), handle, [key]).first();
  return row ? Number((row as DbRow)[col]) : undefined;
}
