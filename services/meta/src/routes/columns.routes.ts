import Router from '@koa/router';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { columnFieldsSchema, columnPatchSchema } from '../domain/column-input';
import { addColumn } from '../domain/add-column';
import { getColumn, getColumnsHash } from '../domain/column-reads';
import { updateColumn } from '../domain/update-column';
import { deleteColumn } from '../domain/delete-column';
import { setPrimaryColumn } from '../domain/set-primary-column';
import { bulkColumns, bulkColumnsSchema } from '../domain/bulk-columns';
import { META, columnParams, tableParams } from './route-schemas';

const add = { params: tableParams, body: columnFieldsSchema };
const ofTable = { params: tableParams };
const bulk = { params: tableParams, body: bulkColumnsSchema };
const one = { params: columnParams };
const patch = { params: columnParams, body: columnPatchSchema };

/** Columns (spec "Columns"). */
export function columnsRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  router.post('/tables/:tableId/columns', requireUser(), validate(add), async (ctx) => {
    const { params, body } = inputOf(ctx, add);
    ctx.body = await addColumn(ports, principalOf(ctx), params.tableId, body);
  });
  router.get('/tables/:tableId/columns/hash', requireUser(), validate(ofTable), async (ctx) => {
    ctx.body = await getColumnsHash(ports, principalOf(ctx), inputOf(ctx, ofTable).params.tableId);
  });
  router.post('/tables/:tableId/columns/bulk', requireUser(), validate(bulk), async (ctx) => {
    const { params, body } = inputOf(ctx, bulk);
    ctx.body = await bulkColumns(ports, principalOf(ctx), params.tableId, body);
  });
  router.get('/columns/:columnId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await getColumn(ports, principalOf(ctx), inputOf(ctx, one).params.columnId);
  });
  router.patch('/columns/:columnId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateColumn(ports, principalOf(ctx), params.columnId, body);
  });
  router.delete('/columns/:columnId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteColumn(ports, principalOf(ctx), inputOf(ctx, one).params.columnId);
  });
  router.post('/columns/:columnId/primary', requireUser(), validate(one), async (ctx) => {
    ctx.body = await setPrimaryColumn(ports, principalOf(ctx), inputOf(ctx, one).params.columnId);
  });
  return router;
}
