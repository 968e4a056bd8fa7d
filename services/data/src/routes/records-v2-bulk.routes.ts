import type Router from '@koa/router';
import {
  buttonTriggerV2, linkCopyPasteOrDeleteAllV2, recordBulkAggregateV2, recordBulkGroupV2, recordBulkListV2, recordMoveV2,
} from '@tabula/contracts';
import { appError, guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { bulkAggregate, bulkGroup, bulkList } from '../domain/bulk-reads';
import { moveRecord } from '../domain/row-move';
import { copyPasteOrDeleteAll } from '../domain/links/link-cell';
import { openTable, type TableTarget } from '../domain/table-access';
import { aggregationsOf } from './aggregates.routes';
import type { DataPorts } from '../ports';

/**
 * The rest of nocodb-sdk's v2 data calls (contracts in records-v2-bulk.ts),
 * each over the v1 use cases: bulk lists, group-bys and aggregates, a row
 * move, a link cell's copy/paste/deleteAll and a button trigger. Registered
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
  route(router, buttonTriggerV2, (ctx) => {
    // NocoDB's checks, in its order. Tabula's button fields carry no action
    // (no webhook or AI action is kept with them), so a button answers as
    // NocoDB's unconfigured one does; a URL button is opened by the client.
    const body = (ctx.request.body ?? {}) as { customRows?: unknown; rowIds?: unknown };
    if (!body.customRows && !body.rowIds) throw appError('ERR_INVALID_REQUEST_BODY', 'customRows or rowIds is required');
    if (body.customRows && body.rowIds) throw appError('ERR_INVALID_REQUEST_BODY', "customRows and rowIds can't be used together");
    const { handle } = openTable(table(ctx));
    const column = handle.model.context.table.columns.find((c) => c.id === ctx.input.params.fieldId);
    if (!column) throw appError('ERR_FIELD_NOT_FOUND', `Field '${ctx.input.params.fieldId}' not found`);
    if (column.uidt !== 'Button') throw appError('ERR_INVALID_REQUEST_BODY', "You can only trigger 'Button' type fields");
    const type = (column.meta as { type?: unknown } | null | undefined)?.type;
    if (type === 'url') throw appError('ERR_INVALID_REQUEST_BODY', "You can't trigger URL type buttons");
    throw appError('ERR_INVALID_REQUEST_BODY', 'Button is not configured properly');
  });
  return router;
}
