import type Router from '@koa/router';
import {
  linkCopyPasteOrDeleteAllV2, recordBulkAggregateV2, recordBulkGroupV2, recordBulkListV2, recordMoveV2,
} from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { bulkAggregate, bulkGroup, bulkList } from '../domain/bulk-reads';
import { moveRecord } from '../domain/row-move';
import { copyPasteOrDeleteAll } from '../domain/links/link-cell';
import type { TableTarget } from '../domain/table-access';
import { aggregationsOf } from './aggregates.routes';
import type { DataPorts } from '../ports';

/**
 * The rest of nocodb-sdk's v2 data calls (contracts in records-v2-bulk.ts),
 * each over the v1 use cases: bulk lists, group-bys and aggregates, a row
 * move and a link cell's copy/paste/deleteAll. Registered
 * before the records router (`/records/{id}/move` and `/links/{field}/records`
 * are no v2 record or link paths).
 */
export function recordsV2BulkRouter(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  route(router, recordBulkListV2, (ctx) => bulkList(ports, table(ctx), ctx.request.body));
  route(router, recordBulkGroupV2, (ctx) => bulkGroup(ports, table(ctx), ctx.request.body));
  route(router, recordBulkAggregateV2, (ctx) => bulkAggregate(table(ctx), {
    where: ctx.input.query.where, filterArrJson: ctx.input.query.filterArrJson,
    aggregation: aggregationsOf(ctx.query, ctx.input.query.aggregation),
  }, ctx.request.body));
  route(router, recordMoveV2, (ctx) => moveRecord(ports, table(ctx), ctx.input.params.recordId, ctx.input.query.before));
  route(router, linkCopyPasteOrDeleteAllV2, (ctx) => copyPasteOrDeleteAll(ports, table(ctx), ctx.input.params.linkFieldId, ctx.request.body));
  return router;
}
