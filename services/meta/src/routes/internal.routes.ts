import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { requireService } from '@tabula/auth';
import type { MetaPorts } from '../app';
import { internalBase, internalBaseCandidates, internalTable, internalTableByRef, internalView } from '../domain/internal-context';
import { ref } from './route-schemas';

const base = { params: z.object({ baseRef: ref }) };
const byRef = { params: z.object({ baseRef: ref, tableRef: ref }) };
const table = { params: z.object({ tableId: ref }) };
const view = { params: z.object({ viewId: ref }) };

/** The internal API of libs/contracts/src/internal/meta-internal.ts (services only). */
export function internalRouter(ports: MetaPorts): Router {
  const router = new Router({ prefix: '/internal' });
  router.get('/bases/:baseRef/tables/:tableRef', requireService(), validate(byRef), async (ctx) => {
    const { params } = inputOf(ctx, byRef);
    ctx.body = await internalTableByRef(ports, params.baseRef, params.tableRef);
  });
  router.get('/bases/:baseRef/candidates', requireService(), validate(base), async (ctx) => {
    ctx.body = await internalBaseCandidates(ports, inputOf(ctx, base).params.baseRef);
  });
  router.get('/bases/:baseRef', requireService(), validate(base), async (ctx) => {
    ctx.body = await internalBase(ports, inputOf(ctx, base).params.baseRef);
  });
  router.get('/tables/:tableId', requireService(), validate(table), async (ctx) => {
    ctx.body = await internalTable(ports, inputOf(ctx, table).params.tableId);
  });
  router.get('/views/:viewId', requireService(), validate(view), async (ctx) => {
    ctx.body = await internalView(ports, inputOf(ctx, view).params.viewId);
  });
  return router;
}
