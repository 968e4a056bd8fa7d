import type Router from '@koa/router';
import {
  recordAggregateV2, recordGroupBy, recordGroupByCount, recordGroupByCountInView, recordGroupByInView, recordGroupedList, recordGroupedListInView,
} from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { aggregateRecords, countGroups, groupRecords } from '../domain/aggregate-records';
import { groupedRecords } from '../domain/grouped-records';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * The aggregations of a query as JSON texts: `aggregation` (JSON, or one per
 * repeated `aggregation[]`) and axios' spelling of an array of objects,
 * `aggregation[0][field]=…&aggregation[0][type]=…` (nocodb-sdk; NocoDB reads it through qs).
 */
export function aggregationsOf(raw: Record<string, unknown>, given: string | string[] | undefined): string[] {
  const out = given === undefined ? [] : Array.isArray(given) ? [...given] : [given];
  const indexed = new Map<string, Record<string, unknown>>();
  for (const [key, value] of Object.entries(raw)) {
    const m = /^aggregation\[(\d{1,3})\]\[(field|type)\]$/.exec(key);
    if (m) (indexed.get(m[1]) ?? indexed.set(m[1], {}).get(m[1])!)[m[2]] = Array.isArray(value) ? value[0] : value;
  }
  for (const item of indexed.values()) out.push(JSON.stringify(item));
  return out;
}

/**
 * Aggregates (NocoDB v2 `…/aggregate`) and group-by (v1 `…/groupby[/count]`).
 * Registered before the records router: `…/groupby` is no record id.
 */
export function aggregatesRouter(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  route(router, recordAggregateV2, (ctx) => aggregateRecords(table(ctx), { ...ctx.input.query, aggregation: aggregationsOf(ctx.query, ctx.input.query.aggregation) }));
  route(router, recordGroupByCount, (ctx) => countGroups(table(ctx), ctx.input.query));
  route(router, recordGroupByCountInView, (ctx) => countGroups(table(ctx), ctx.input.query));
  route(router, recordGroupBy, (ctx) => groupRecords(ports, table(ctx), ctx.input.query));
  route(router, recordGroupByInView, (ctx) => groupRecords(ports, table(ctx), ctx.input.query));
  route(router, recordGroupedList, (ctx) => groupedRecords(ports, table(ctx), ctx.input.params.columnId, ctx.input.query));
  route(router, recordGroupedListInView, (ctx) => groupedRecords(ports, table(ctx), ctx.input.params.columnId, ctx.input.query));
  return router;
}
