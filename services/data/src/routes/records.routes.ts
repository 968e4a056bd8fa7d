import Router from '@koa/router';
import { requireUser, principalOf } from '@tabula/auth';
import { validate } from '@tabula/http';
import { listRecords, findOneRecord, countRecords } from '../domain/list-records';
import { readRecord, recordExists } from '../domain/read-record';
import { insertRecords } from '../domain/insert-records';
import { updateRecord } from '../domain/update-records';
import { deleteRecord } from '../domain/delete-records';
import { insertQuerySchema, readQuerySchema, rowIdOf, tableRefOf } from './route-input';
import type { DataPorts } from '../app';

const TABLE = '/api/v1/db/data/:orgs/:baseName/:tableName';
const VIEW = `${TABLE}/views/:viewName`;

/** Records (v1): list, find-one, count, read, exist, create, update, delete — on tables and on views. */
export function recordsRouter(ports: DataPorts): Router {
  const router = new Router();
  const auth = requireUser({ allowApiToken: true });
  const q = (ctx: { state: Record<string, unknown> }) => (ctx.state.input as { query: Record<string, string | undefined> }).query;
  for (const base of [VIEW, TABLE]) {
    router.get(`${base}/find-one`, auth, validate({ query: readQuerySchema }), async (ctx) => {
      const record = await findOneRecord(ports, principalOf(ctx), tableRefOf(ctx), q(ctx));
      // Koa turns a null body into 204; the spec answers 200 with JSON null.
      ctx.type = 'json';
      ctx.body = record ?? 'null';
    });
    router.get(`${base}/count`, auth, validate({ query: readQuerySchema }), async (ctx) => {
      ctx.body = await countRecords(ports, principalOf(ctx), tableRefOf(ctx), q(ctx));
    });
    router.get(base, auth, validate({ query: readQuerySchema }), async (ctx) => {
      ctx.body = await listRecords(ports, principalOf(ctx), tableRefOf(ctx), q(ctx));
    });
    router.post(base, auth, validate({ query: insertQuerySchema }), async (ctx) => {
      const [record] = await insertRecords(ports, principalOf(ctx), tableRefOf(ctx), [ctx.request.body], { bulk: false, before: q(ctx).before });
      ctx.body = record;
    });
    router.get(`${base}/:rowId/exist`, auth, async (ctx) => {
      ctx.body = await recordExists(ports, principalOf(ctx), tableRefOf(ctx), rowIdOf(ctx));
    });
    router.get(`${base}/:rowId`, auth, async (ctx) => {
      ctx.body = await readRecord(ports, principalOf(ctx), tableRefOf(ctx), rowIdOf(ctx));
    });
    router.patch(`${base}/:rowId`, auth, async (ctx) => {
      ctx.body = await updateRecord(ports, principalOf(ctx), tableRefOf(ctx), rowIdOf(ctx), ctx.request.body);
    });
    router.delete(`${base}/:rowId`, auth, async (ctx) => {
      ctx.body = await deleteRecord(ports, principalOf(ctx), tableRefOf(ctx), rowIdOf(ctx));
    });
  }
  return router;
}
