import type Router from '@koa/router';
import { recordCountV2, recordCreateV2, recordDeleteV2, recordListV2, recordReadV2, recordUpdateV2 } from '@tabula/contracts';
import { RawJson, guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { countRecords, listRecords } from '../domain/list-records';
import { readRecord } from '../domain/read-record';
import { checkPkValue } from '../model/row-id';
import { insertRecordsAs } from '../domain/insert-records';
import { updateRecordsByKey } from '../domain/update-records';
import { bulkDeleteRecords } from '../domain/delete-records';
import { presentKeys } from '../presenters/record-key.presenter';
import type { ApiRecord } from '../presenters/record.presenter';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * Records (NocoDB v2, `/api/v2/tables/{tableId}/records…`): the v1 use cases
 * on a table named by id (the `table` scope; `viewId` names the view), with
 * v2's shapes: a write body is one record or an array, and answers the
 * written records' keys in the same form. Count is registered before read
 * (`/records/count` is no record id).
 */
export function recordsV2Router(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  route(router, recordCountV2, (ctx) => countRecords(table(ctx), ctx.input.query));
  route(router, recordListV2, (ctx) => listRecords(ports, table(ctx), ctx.input.query));
  route(router, recordReadV2, async (ctx) => {
    checkPkValue(table(ctx).value.handle.model, ctx.input.params.recordId);
    const answer = await readRecord(ports, table(ctx), ctx.input.params.recordId, ctx.input.query);
    return 'json' in answer ? new RawJson(answer.json) : answer.record;
  });
  route(router, recordCreateV2, async (ctx) => {
    const { body } = ctx.request;
    const many = Array.isArray(body);
    const inserted = await insertRecordsAs(ports, table(ctx), many ? body : [body], { bulk: many });
    return presentKeys(table(ctx).value.handle.model, inserted.records(), many);
  });
  route(router, recordUpdateV2, async (ctx) => {
    const { body } = ctx.request;
    return presentKeys(table(ctx).value.handle.model, await updateRecordsByKey(ports, table(ctx), body), Array.isArray(body));
  });
  route(router, recordDeleteV2, async (ctx) => {
    const { body } = ctx.request;
    const many = Array.isArray(body);
    const keys = await bulkDeleteRecords(ports, table(ctx), many ? body : [body], { strict: true });
    return presentKeys(table(ctx).value.handle.model, keys as ApiRecord[], many);
  });
  return router;
}
