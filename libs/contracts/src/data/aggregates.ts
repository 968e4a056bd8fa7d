import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS } from '../endpoint/access';
import { pageInfoSchema } from '../common/paging';
import { queryValue, readQuerySchema } from './record-query';
import { tableRefScope } from './table-scope';
import { onTableId, tableIdParams, v2ReadQuery, V2_TABLES } from './records-v2';

/**
 * The aggregate and group-by reads nocodb-sdk exposes: `dbDataTableAggregate`
 * (`GET /api/v2/tables/{tableId}/aggregate`) and `dbTableRow.groupBy` /
 * `dbViewRow.groupBy` (`GET /api/v1/db/data/{orgs}/{baseName}/{tableName}[/views/{viewName}]/groupby[/count]`),
 * with NocoDB 0.301.3's answers. They filter like list and count (view,
 * `where`, `filterArrJson`) and need data.read, as list does.
 */
const aggregateQuery = v2ReadQuery.pick({ where: true, filterArrJson: true, viewId: true }).extend({
  aggregation: z.union([z.string(), z.array(z.string())]).optional().describe('JSON: `[{"field":"<field id>","type":"sum"}]`, or one JSON object per repeated `aggregation[]` (as nocodb-sdk sends them); types count, count_empty, count_filled, count_unique, percent_empty, percent_filled, percent_unique, sum, avg, min, max, range, median (PostgreSQL). Unknown fields and types are left out'),
});

export const recordAggregateV2 = defineEndpoint({
  service: 'data', tags: ['Records (v2)'], id: 'recordAggregateV2', method: 'GET', path: `${V2_TABLES}/aggregate`,
  summary: "Aggregate fields over the matching records (`{ <title>: value }`)",
  auth: { callers: USERS, permission: 'data.read', scope: onTableId }, errors: [403, 404],
  params: tableIdParams, query: aggregateQuery, response: z.record(z.string(), z.unknown()), example: { response: { Qty: 21 } },
});

const groupByQuery = readQuerySchema.pick({ where: true, filterArrJson: true, sort: true, limit: true, offset: true, page: true, pageSize: true }).extend({
  column_name: queryValue.describe('The column to group by (title or id); 404 ERR_FIELD_NOT_FOUND for none'),
});
const tableParams = z.object({ orgs: z.string(), baseName: z.string(), tableName: z.string() });
const viewParams = tableParams.extend({ viewName: z.string() });
const TABLE = '/api/v1/db/data/{orgs}/{baseName}/{tableName}';
const read = { callers: USERS, permission: 'data.read', scope: tableRefScope } as const;
const groups = z.object({ list: z.array(z.record(z.string(), z.unknown())), pageInfo: pageInfoSchema });
const common = { service: 'data', auth: read, errors: [403, 404], query: groupByQuery } as const;

export const recordGroupBy = defineEndpoint({
  ...common, tags: ['Records'], id: 'recordGroupBy', method: 'GET', path: `${TABLE}/groupby`, params: tableParams,
  summary: "A column's values with their row counts (`{ list: [{ count, <title>: value }], pageInfo }`)", response: groups,
  example: { response: { list: [{ count: 2, Qty: 5 }], pageInfo: { totalRows: 1, page: 1, pageSize: 25, isFirstPage: true, isLastPage: true } } },
});
export const recordGroupByCount = defineEndpoint({
  ...common, tags: ['Records'], id: 'recordGroupByCount', method: 'GET', path: `${TABLE}/groupby/count`, params: tableParams,
  summary: 'How many groups (a bare number)', response: z.number(), example: { response: 4 },
});
export const recordGroupByInView = defineEndpoint({
  ...common, tags: ['Records in views'], id: 'recordGroupByInView', method: 'GET', path: `${TABLE}/views/{viewName}/groupby`, params: viewParams,
  summary: "A column's values with their row counts, through a view", response: groups,
});
const groupedQuery = readQuerySchema.extend({
  options: z.union([z.string(), z.array(z.string())]).optional().describe('The group keys to answer (a JSON array, or one per repeated `options`); default: every value of the column (blank first)'),
});
const groupedParams = tableParams.extend({ columnId: z.string() });
const groupedList = z.array(z.object({ key: z.unknown(), value: z.object({ list: z.array(z.record(z.string(), z.unknown())), pageInfo: pageInfoSchema }) }));
const groupedExample = { response: [{ key: 'open', value: { list: [{ Id: 1, Status: 'open' }], pageInfo: { totalRows: 1, page: 1, pageSize: 25, isFirstPage: true, isLastPage: true } } }] };

/** nocodb-sdk `dbTableRow.groupedDataList` / `dbViewRow.groupedDataList`: one page of records per value of a column. */
export const recordGroupedList = defineEndpoint({
  ...common, query: groupedQuery, tags: ['Records'], id: 'recordGroupedList', method: 'GET', path: `${TABLE}/group/{columnId}`, params: groupedParams,
  summary: "One page of records per value of a column (`[{ key, value: { list, pageInfo } }]`); where, sort and paging apply in each group", response: groupedList,
  example: groupedExample,
});
export const recordGroupedListInView = defineEndpoint({
  ...common, query: groupedQuery, tags: ['Records in views'], id: 'recordGroupedListInView', method: 'GET', path: `${TABLE}/views/{viewName}/group/{columnId}`,
  params: groupedParams.extend({ viewName: z.string() }), summary: 'One page of records per value of a column, through a view', response: groupedList,
  example: groupedExample,
});
export const recordGroupByCountInView = defineEndpoint({
  ...common, tags: ['Records in views'], id: 'recordGroupByCountInView', method: 'GET', path: `${TABLE}/views/{viewName}/groupby/count`, params: viewParams,
  summary: 'How many groups, through a view', response: z.number(), example: { response: 4 },
});
