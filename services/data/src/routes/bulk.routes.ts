import Router from '@koa/router';
import { requireUser, principalOf } from '@tabula/auth';
import { validate } from '@tabula/http';
import { insertRecords } from '../domain/insert-records';
import { bulkUpdateRecords } from '../domain/update-records';
import { bulkDeleteRecords } from '../domain/delete-records';
import { deleteAllRecords, updateAllRecords, type AllQuery } from '../domain/bulk-all';
import { upsertRecords } from '../domain/upsert-records';
import { checkBulkSize } from '../domain/bulk-limits';
import { recordsJson } from '../presenters/record.presenter';
import { allQuerySchema, insertQuerySchema, tableRefOf } from './route-input';
import type { DataPorts } from '../app';

const BULK = '/api/v1/db/data/bulk/:orgs/:baseName/:tableName';

/** Bulk (v1): insert, update, update-all, delete, delete-all, upsert — each one transaction. */
export function bulkRouter(ports: DataPorts): Router {
  const router = new Router();
  const auth = requireUser({ allowApiToken: true });
  const allQuery = (ctx: { state: Record<string, unknown> }) => (ctx.state.input as { query: AllQuery }).query;
  router.patch(`${BULK}/all`, auth, validate({ query: allQuerySchema }), async (ctx) => {
    ctx.body = await updateAllRecords(ports, principalOf(ctx), tableRefOf(ctx), ctx.request.body, allQuery(ctx));
  });
  router.delete(`${BULK}/all`, auth, validate({ query: allQuerySchema }), async (ctx) => {
    ctx.body = await deleteAllRecords(ports, principalOf(ctx), tableRefOf(ctx), allQuery(ctx));
  });
  router.post(`${BULK}/upsert`, auth, validate({ query: insertQuerySchema }), async (ctx) => {
    ctx.body = await upsertRecords(ports, principalOf(ctx), tableRefOf(ctx), ctx.request.body);
  });
  router.post(BULK, auth, validate({ query: insertQuerySchema }), async (ctx) => {
    const bodies: unknown = ctx.request.body;
    checkBulkSize(ports, bodies);
    // The records event carries the same rows: their JSON text is made once (recordsJson).
    ctx.type = 'json';
    ctx.body = recordsJson(await insertRecords(ports, principalOf(ctx), tableRefOf(ctx), bodies, { bulk: true }));
  });
  router.patch(BULK, auth, async (ctx) => {
    ctx.body = await bulkUpdateRecords(ports, principalOf(ctx), tableRefOf(ctx), ctx.request.body);
  });
  router.delete(BULK, auth, async (ctx) => {
    ctx.body = await bulkDeleteRecords(ports, principalOf(ctx), tableRefOf(ctx), ctx.request.body);
  });
  return router;
}
