import Router from '@koa/router';
import { metaInternal, metaInternalEndpoints } from '@tabula/contracts';
import { route } from '@tabula/http';
import { requireService } from '@tabula/auth';
import type { MetaPorts } from '../ports';
import { internalBase, internalTable, internalTableByRef, internalView, internalBaseCandidates } from '../domain/tables/internal-context';

/** The internal API of libs/contracts/src/meta/internal.ts (services only). */
export function internalRouter(ports: MetaPorts): Router {
  const router = new Router();
  route(router, metaInternal.tableContextByRef, requireService(), async (ctx) => internalTableByRef(ports, ctx.input.params.baseRef, ctx.input.params.tableRef));
  route(router, metaInternalEndpoints.baseCandidates, requireService(), async (ctx) => internalBaseCandidates(ports, ctx.input.params.baseRef));
  route(router, metaInternal.baseInfo, requireService(), async (ctx) => internalBase(ports, ctx.input.params.baseRef));
  route(router, metaInternal.tableContext, requireService(), async (ctx) => internalTable(ports, ctx.input.params.tableId));
  route(router, metaInternal.viewContext, requireService(), async (ctx) => internalView(ports, ctx.input.params.viewId));
  return router;
}
