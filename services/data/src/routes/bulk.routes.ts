import Router from '@koa/router';
import { bulkDelete, bulkDeleteAll, bulkInsert, bulkUpdate, bulkUpdateAll, bulkUpsert } from '@tabula/contracts';
import { principalOf } from '@tabula/auth';
import { RawJson, route } from '@tabula/http';
import { insertRecordsAs } from '../domain/insert-records';
import { bulkUpdateRecords } from '../domain/update-records';
import { bulkDeleteRecords } from '../domain/delete-records';
import { deleteAllRecords, updateAllRecords } from '../domain/bulk/bulk-all';
import { upsertRecords } from '../domain/upsert-records';
import { checkBulkSize } from '../domain/bulk/bulk-limits';
import { tableRefOf } from './route-input';
import type { DataPorts } from '../ports';

/** Bulk (v1): insert, update, update-all, delete, delete-all, upsert — each one transaction. Bodies go to the domain as sent. */
export function bulkRouter(ports: DataPorts): Router {
  const router = new Router();
  route(router, bulkUpdateAll, async (ctx) =>
    updateAllRecords(ports, principalOf(ctx), tableRefOf(ctx.input.params), ctx.request.body, ctx.input.query));
  route(router, bulkDeleteAll, async (ctx) => deleteAllRecords(ports, principalOf(ctx), tableRefOf(ctx.input.params), ctx.input.query));
  route(router, bulkUpsert, async (ctx) => upsertRecords(ports, principalOf(ctx), tableRefOf(ctx.input.params), ctx.request.body));
  route(router, bulkInsert, async (ctx) => {
    const bodies: unknown = ctx.request.body;
    checkBulkSize(ports, bodies);
    // The records event carries the same rows: their JSON text is made once (by the database on the one-statement path, else recordsJson),
    // and sent in the pieces it came in (never joined into one large string).
    return new RawJson((await insertRecordsAs(ports, principalOf(ctx), tableRefOf(ctx.input.params), bodies, { bulk: true })).jsonPieces());
  });
  route(router, bulkUpdate, async (ctx) => bulkUpdateRecords(ports, principalOf(ctx), tableRefOf(ctx.input.params), ctx.request.body));
  route(router, bulkDelete, async (ctx) => bulkDeleteRecords(ports, principalOf(ctx), tableRefOf(ctx.input.params), ctx.request.body));
  return router;
}
