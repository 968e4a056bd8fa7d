import type Router from '@koa/router';
import { recordsOfTable, recordsOfView } from '@tabula/contracts';
import { RawJson, guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { listRecords, findOneRecord, countRecords } from '../domain/list-records';
import { readRecord, recordExists } from '../domain/read-record';
import { insertRecordsAs } from '../domain/insert-records';
import { updateRecord } from '../domain/update-records';
import { deleteRecord } from '../domain/delete-records';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * Records (v1): list, find-one, count, read, exist, create, update, delete — on
 * views and on tables. The guard resolves the table (data.read / data.write,
 * declared on the contracts) and the handlers serve from it. Record bodies go
 * to the domain as sent (`ctx.request.body`): it checks them column by column,
 * and an absent body differs from `{}`.
 */
export function recordsRouter(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  for (const e of [recordsOfView, recordsOfTable]) {
    route(router, e.findOne, async (ctx) => findOneRecord(ports, table(ctx), ctx.input.query));
    route(router, e.count, async (ctx) => countRecords(table(ctx), ctx.input.query));
    route(router, e.list, async (ctx) => listRecords(ports, table(ctx), ctx.input.query));
    route(router, e.create, async (ctx) => {
      const options = { bulk: false, before: ctx.input.query.before };
      const inserted = await insertRecordsAs(ports, table(ctx), [ctx.request.body], options);
      // The one-statement insert answers the database's JSON text (`[{…}]`): its one element is sent as is, never parsed.
      const json = inserted.json();
      return json.startsWith('[{') && json.endsWith('}]') ? new RawJson(json.slice(1, -1)) : inserted.records()[0];
    });
    route(router, e.exists, async (ctx) => recordExists(table(ctx), ctx.input.params.rowId));
    route(router, e.read, async (ctx) => {
      const answer = await readRecord(ports, table(ctx), ctx.input.params.rowId);
      return 'json' in answer ? new RawJson(answer.json) : answer.record;
    });
    route(router, e.update, async (ctx) => updateRecord(ports, table(ctx), ctx.input.params.rowId, ctx.request.body));
    route(router, e.delete, async (ctx) => deleteRecord(ports, table(ctx), ctx.input.params.rowId));
  }
  return router;
}
