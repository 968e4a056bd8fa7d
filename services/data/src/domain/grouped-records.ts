import type { Knex } from 'knex';
import { pageInfo, resolvePaging, type ColumnInfo, type PageInfo } from '@tabula/contracts';
import { appError } from '@tabula/http';
import { countRows, filtered, selectPage, tableOf } from '../repositories/records.repository';
import { isVirtual } from '../model/column-roles';
import { presentRecord, presentValue, type ApiRecord } from '../presenters/record.presenter';
import { signAttachments } from '../attachments/attachment-signer';
import { presentUserCells } from '../values/user-cells';
import { openTable, type TableInScope } from './table-access';
import { readFilter, readOptions, type ReadQuery } from './read-options';
import type { DataPorts } from '../ports';

/** Query of the grouped data list: the read options, the page (per group) and the group keys asked for. */
export interface GroupedQuery extends ReadQuery {
  options?: string | string[];
  limit?: unknown;
  offset?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

/** At most this many groups in one answer (a column with more values is paged by its `options`). */
const MAX_GROUPS = 100;

function keysGiven(options: GroupedQuery['options']): unknown[] | undefined {
  if (options === undefined) return undefined;
  const list = Array.isArray(options) ? options : [options];
  if (list.length === 1) {
    try {
      const parsed: unknown = JSON.parse(list[0]);
      if (Array.isArray(parsed)) return parsed.slice(0, MAX_GROUPS);
    } catch { /* a plain key */ }
  }
  return list.slice(0, MAX_GROUPS);
}

/**
 * GET …/group/{columnId} (nocodb-sdk `groupedDataList`): for each value of a
 * column (or each key of `options`), one page of the records holding it, as
 * NocoDB 0.301.3 answers: `[{ key, value: { list, pageInfo } }]`. The groups are
 * the column's values under the view's filters (blank first, then ascending);
 * `where`, sort, fields and paging apply inside each group (a group `where`
 * empties is answered with an empty list, as NocoDB does). A column of no
 * stored value of its own (links, lookups, formulas) is 404 ERR_FIELD_NOT_FOUND.
 */
export async function groupedRecords(ports: DataPorts, scope: TableInScope, columnRef: string, query: GroupedQuery): Promise<{ key: unknown; value: { list: ApiRecord[]; pageInfo: PageInfo } }[]> {
  const { handle, view } = openTable(scope);
  const column = handle.model.byKey.get(columnRef);
  if (!column || isVirtual(column) || !column.column_name || column.column_name.startsWith('__nc_')) {
    throw appError('ERR_FIELD_NOT_FOUND', `Field '${columnRef}' not found`);
  }
  const db = handle.source.knex;
  const name = column.column_name;
  let keys = keysGiven(query.options);
  if (!keys) {
    const viewOnly = readFilter(handle, view, {});
    const rows = await filtered(tableOf(db, handle), handle, viewOnly).select(db.raw('?? as ??', [name, 'value'])).groupBy(name)
      .orderByRaw(`?? is not null, ?? asc`, [name, name]).limit(MAX_GROUPS) as { value: unknown }[];
    keys = rows.map((r) => r.value);
  }
  const options = readOptions(handle, view, query);
  const { limit, offset } = resolvePaging(query, { limit: ports.config.SVC_DB_QUERY_LIMIT_DEFAULT, max: ports.config.SVC_DB_QUERY_LIMIT_MAX });
  const out = [];
  for (const key of keys) {
    const scope = (qb: Knex.QueryBuilder) => { if (key === null || key === undefined || key === '') qb.whereNull(name); else qb.where(name, key as Knex.Value); };
    const [rows, total] = await Promise.all([
      selectPage(db, handle, { ...options, limit, offset, scope }),
      countRows(db, handle, options.filter, scope),
    ]);
    const list = rows.map((r) => presentRecord(options.columns, r));
    out.push({ key: keyOf(column, key), value: { list, pageInfo: pageInfo(total, limit, offset) } });
  }
  const all = out.flatMap((g) => g.value.list);
  await signAttachments(ports, handle.baseId, options.columns, all);
  await presentUserCells(ports, handle.baseId, options.columns, all);
  return out;
}

const keyOf = (column: ColumnInfo, key: unknown) => (key === null || key === undefined ? null : typeof key === 'string' ? key : presentValue(column, key));
