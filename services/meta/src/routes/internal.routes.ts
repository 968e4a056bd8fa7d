import type Router from '@koa/router';
import { metaInternal, metaInternalEndpoints } from '@tabula/contracts';
import { guardedRouter, route, type Authorizer } from '@tabula/http';
import type { MetaPorts } from '../ports';
import { internalBase, internalTable, internalTableByRef, internalView, internalBaseCandidates } from '../domain/tables/internal-context';

/** The internal API of libs/contracts/src/meta/internal.ts (services only). */
export function internalRouter(ports: MetaPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, metaInternal.tableContextByRef, async (ctx) => internalTableByRef(ports, ctx.input.params.baseRef, ctx.input.params.tableRef));
  route(router, metaInternalEndpoints.baseCandidates, async (ctx) => internalBaseCandidates(ports, ctx.input.params.baseRef));
  route(router, metaInternal.baseInfo, async (ctx) => internalBase(ports, ctx.input.params.baseRef));
  route(router, metaInternal.tableContext, async (ctx) => internalTable(ports, ctx.input.params.tableId));
  route(router, metaInternal.viewContext, async (ctx) => internalView(ports, ctx.input.params.viewId));
  return router;
}
