import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { bulkDelete, bulkDeleteAll, bulkInsert, bulkUpdate, bulkUpdateAll, bulkUpsert } from '@tabula/contracts';
import { RawJson, guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { insertRecordsAs } from '../domain/insert-records';
import { bulkUpdateRecords } from '../domain/update-records';
import { bulkDeleteRecords } from '../domain/delete-records';
import { deleteAllRecords, updateAllRecords } from '../domain/bulk/bulk-all';
import { upsertRecords } from '../domain/upsert-records';
import { checkBulkSize } from '../domain/bulk/bulk-limits';
import type { TableTarget } from '../domain/table-access';
import type { DataPorts } from '../ports';

/**
 * Bulk (v1): insert, update, update-all, delete, delete-all, upsert — each one
 * transaction, each needing data.write on the table (declared on the
 * contracts). Bodies go to the domain as sent.
 */
export function bulkRouter(ports: DataPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  const table = scopeOf<TableTarget>;
  // A body that is no array, or over SVC_BULK_MAX_RECORDS, is refused before the table is resolved and the guard runs, as it always was.
  const bulkBody: Middleware = async (ctx, next) => { checkBulkSize(ports, ctx.request.body); await next(); };
  route(router, bulkUpdateAll, async (ctx) => updateAllRecords(ports, table(ctx), ctx.request.body, ctx.input.query));
  route(router, bulkDeleteAll, async (ctx) => deleteAllRecords(ports, table(ctx), ctx.input.query));
  route(router, bulkUpsert, bulkBody, async (ctx) => upsertRecords(ports, table(ctx), ctx.request.body));
  route(router, bulkInsert, bulkBody, async (ctx) => {
    const bodies = ctx.request.body as unknown[];
    // The records event carries the same rows: their JSON text is made once (by the database on the one-statement path, else recordsJson),
    // and sent in the pieces it came in (never joined into one large string).
    return new RawJson((await insertRecordsAs(ports, table(ctx), bodies, { bulk: true })).jsonPieces());
  });
  route(router, bulkUpdate, bulkBody, async (ctx) => bulkUpdateRecords(ports, table(ctx), ctx.request.body));
  route(router, bulkDelete, bulkBody, async (ctx) => bulkDeleteRecords(ports, table(ctx), ctx.request.body));
  return router;
}
