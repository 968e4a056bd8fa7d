import type { Knex } from 'knex';
import type { ColumnInfo } from '@tabula/contracts';
import { pageInfo, resolvePaging, type PageInfo } from '@tabula/contracts';
import { appError } from '@tabula/http';
import { isRelationUidt, uidtEntry } from '@tabula/query';
import { filtered, tableOf } from '../repositories/records.repository';
import { isVirtual } from '../model/column-roles';
import { presentValue } from '../presenters/record.presenter';
import { openTable, type TableInScope } from './table-access';
import { readFilter, type ReadQuery } from './read-options';
import type { DataPorts } from '../ports';

/**
 * NocoDB's field aggregations (`aggregation=[{"field":"<id>","type":"sum"}]`):
 * one SQL statement over the rows the view, `where` and `filterArrJson`
 * select (readFilter, as list and count). A field that is not a stored
 * column, or a type this does not know, is left out of the answer, as
 * NocoDB leaves them out; the answer is `{ <title>: value }`.
 */
const AGGREGATES: Record<string, (col: string, dialect: string) => string | undefined> = {
  count: () => 'count(*)',
  count_empty: (c) => `count(*) - count(${c})`,
  count_filled: (c) => `count(${c})`,
  count_unique: (c) => `count(distinct ${c})`,
  percent_empty: (c) => `case when count(*) = 0 then 0 else 100.0 * (count(*) - count(${c})) / count(*) end`,
  percent_filled: (c) => `case when count(*) = 0 then 0 else 100.0 * count(${c}) / count(*) end`,
  percent_unique: (c) => `case when count(*) = 0 then 0 else 100.0 * count(distinct ${c}) / count(*) end`,
  sum: (c) => `sum(${c})`,
  avg: (c) => `avg(${c})`,
  min: (c) => `min(${c})`,
  max: (c) => `max(${c})`,
  range: (c) => `max(${c}) - min(${c})`,
  median: (c, dialect) => (dialect === 'pg' ? `percentile_cont(0.5) within group (order by ${c})` : undefined),
};
const NUMERIC_ONLY = new Set(['sum', 'avg', 'range', 'median']);
/** Sums, averages, ranges and medians are of columns that compare as numbers (the uidt catalogue; a ForeignKey is no quantity). */
const isNumeric = (uidt: string) => uidtEntry(uidt)?.compare === 'number' && !isRelationUidt(uidt);

/** Query of an aggregate: the read filter and `aggregation` (JSON). */
export interface AggregateQuery extends ReadQuery {
  aggregation?: string | string[];
}

/** The aggregations asked: a JSON array, or (repeated `aggregation[]`) one JSON object each; what does not parse is left out. */
function parseAggregation(value: string | string[] | undefined): { field: string; type: string }[] {
  const texts = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return texts.flatMap((text) => {
    try {
      const parsed: unknown = JSON.parse(text);
      return (Array.isArray(parsed) ? parsed : [parsed]).filter(
        (a): a is { field: string; type: string } => !!a && typeof a === 'object' && typeof (a as { field?: unknown }).field === 'string' && typeof (a as { type?: unknown }).type === 'string',
      );
    } catch {
      return [];
    }
  });
}

/** GET /api/v2/tables/{tableId}/aggregate: `{ <title>: value }` of each known aggregation (the last one of a field wins). */
export async function aggregateRecords(scope: TableInScope, query: AggregateQuery): Promise<Record<string, unknown>> {
  const { handle, view } = openTable(scope);
  const db = handle.source.knex;
  const parts: { title: string; sql: string; numeric: boolean }[] = [];
  for (const { field, type } of parseAggregation(query.aggregation)) {
    const column = handle.model.byKey.get(field);
    if (!column || isVirtual(column) || !column.column_name || !AGGREGATES[type]) continue;
    if (NUMERIC_ONLY.has(type) && !isNumeric(column.uidt)) continue;
    const sql = AGGREGATES[type](db.raw('??', [column.column_name]).toQuery(), handle.source.dialect);
    if (sql) parts.push({ title: column.title, sql, numeric: type !== 'min' && type !== 'max' });
  }
  if (!parts.length) return {};
  const qb = filtered(tableOf(db, handle), handle, readFilter(handle, view, query));
  const row = (await qb.select(parts.map((p, i) => db.raw(`${p.sql} as ??`, [`a${i}`]))).first()) as Record<string, unknown> | undefined;
  const out: Record<string, unknown> = {};
  parts.forEach((p, i) => {
    const value = row?.[`a${i}`] ?? null;
    const column = handle.model.byKey.get(p.title) as ColumnInfo;
    out[p.title] = value === null ? null : p.numeric ? Number(value) : presentValue(column, value);
  });
  return out;
}

/** Query of a group-by: the column, the read filter, `sort` (the column, `-` descending) and the page. */
export interface GroupByQuery extends ReadQuery {
  column_name?: string;
  limit?: unknown;
  offset?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

function groupColumn(scope: TableInScope, query: GroupByQuery): ColumnInfo {
  const { handle } = openTable(scope);
  const column = query.column_name ? handle.model.byKey.get(query.column_name) : undefined;
  if (!column || isVirtual(column) || !column.column_name) throw appError('ERR_FIELD_NOT_FOUND', `Field '${query.column_name ?? ''}' not found`);
  return column;
}

function groups(scope: TableInScope, query: GroupByQuery, column: ColumnInfo): Knex.QueryBuilder {
  const { handle, view } = openTable(scope);
  return filtered(tableOf(handle.source.knex, handle), handle, readFilter(handle, view, query)).groupBy(column.column_name);
}

/**
 * GET …/groupby?column_name=…: the column's distinct values with their row
 * counts, `{ list: [{ count, <title>: value }], pageInfo }`, paged like a
 * list; ordered by the value (ascending unless `sort=-<title>`; empty values last on PostgreSQL and SQLite).
 */
export async function groupRecords(ports: DataPorts, scope: TableInScope, query: GroupByQuery): Promise<{ list: Record<string, unknown>[]; pageInfo: PageInfo }> {
  const column = groupColumn(scope, query);
  const { source } = openTable(scope).handle;
  const db = source.knex;
  const { limit, offset } = resolvePaging(query, { limit: ports.config.SVC_DB_QUERY_LIMIT_DEFAULT, max: ports.config.SVC_DB_QUERY_LIMIT_MAX });
  const desc = (query.sort ?? '').split(',').some((s) => s.startsWith('-'));
  const rows = await groups(scope, query, column)
    .select(db.raw('count(*) as ??', ['count']), db.raw('?? as ??', [column.column_name, 'value']))
    .orderByRaw(`?? ${desc ? 'desc' : 'asc'}${source.dialect === 'pg' || source.dialect === 'sqlite3' ? ' nulls last' : ''}`, [column.column_name])
    .limit(limit).offset(offset) as { count: unknown; value: unknown }[];
  const totalRows = await countGroups(scope, query, column);
  const list = rows.map((r) => ({ count: Number(r.count), [column.title]: r.value === null ? null : presentValue(column, r.value) }));
  return { list, pageInfo: pageInfo(totalRows, limit, offset) };
}

/** GET …/groupby/count: how many groups (a bare number, as NocoDB answers). */
export async function countGroups(scope: TableInScope, query: GroupByQuery, column = groupColumn(scope, query)): Promise<number> {
  const db = openTable(scope).handle.source.knex;
  const row = await db.count({ n: '*' }).from(groups(scope, query, column).select(column.column_name).as('g')).first();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}
