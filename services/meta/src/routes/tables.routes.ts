import Router, { type RouterContext } from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { createTable, createTableSchema } from '../domain/create-table';
import { listTables } from '../domain/list-tables';
import { getTable } from '../domain/get-table';
import { updateTable, updateTableSchema } from '../domain/update-table';
import { deleteTable } from '../domain/delete-table';
import { reorderTable, reorderTableSchema } from '../domain/reorder-table';
import { duplicateSchema, duplicateTable } from '../domain/duplicate-table';
import { META, baseParams, pageQuery, ref, tableParams } from './route-schemas';

const listQuery = pageQuery.extend({ sourceId: z.string().optional(), sort: z.enum(['asc', 'desc']).optional() });
const list = { params: baseParams.extend({ sourceId: ref.optional() }), query: listQuery };
const create = { params: baseParams.extend({ sourceId: ref.optional() }), body: createTableSchema };
const one = { params: tableParams };
const patch = { params: tableParams, body: updateTableSchema };
const reorder = { params: tableParams, body: reorderTableSchema };
const duplicate = { params: baseParams.extend({ tableId: ref }), body: duplicateSchema };

/** Tables (spec "Tables"); `/projects/:baseId/:sourceId/tables` is NocoDB's per-source form. */
export function tablesRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: META });
  const listHandler = async (ctx: RouterContext) => {
    const { params, query } = inputOf(ctx, list);
    ctx.body = await listTables(ports, principalOf(ctx), params.baseId, { ...query, sourceId: params.sourceId ?? query.sourceId });
  };
  const createHandler = async (ctx: RouterContext) => {
    const { params, body } = inputOf(ctx, create);
    ctx.body = await createTable(ports, principalOf(ctx), params.baseId, { ...body, source_id: params.sourceId ?? body.source_id });
  };
  router.get('/projects/:baseId/tables', requireUser(), validate(list), listHandler);
  router.get('/projects/:baseId/:sourceId/tables', requireUser(), validate(list), listHandler);
  router.post('/projects/:baseId/tables', requireUser(), validate(create), createHandler);
  router.post('/projects/:baseId/:sourceId/tables', requireUser(), validate(create), createHandler);
  router.get('/tables/:tableId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await getTable(ports, principalOf(ctx), inputOf(ctx, one).params.tableId);
  });
  router.patch('/tables/:tableId', requireUser(), validate(patch), async (ctx) => {
    const { params, body } = inputOf(ctx, patch);
    ctx.body = await updateTable(ports, principalOf(ctx), params.tableId, body);
  });
  router.delete('/tables/:tableId', requireUser(), validate(one), async (ctx) => {
    ctx.body = await deleteTable(ports, principalOf(ctx), inputOf(ctx, one).params.tableId);
  });
  router.post('/tables/:tableId/reorder', requireUser(), validate(reorder), async (ctx) => {
    const { params, body } = inputOf(ctx, reorder);
    ctx.body = await reorderTable(ports, principalOf(ctx), params.tableId, body.order);
  });
  router.post('/duplicate/:baseId/table/:tableId', requireUser(), validate(duplicate), async (ctx) => {
    const { params, body } = inputOf(ctx, duplicate);
    ctx.body = await duplicateTable(ports, principalOf(ctx), params.baseId, params.tableId, body);
  });
  return router;
}
