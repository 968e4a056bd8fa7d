import Router from '@koa/router';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import { integrationEndpointCall, integrationStore, integrationTypeGet, integrationTypeList } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import { describeSubType, subTypeOf, typeList } from '../registry/type-registry';
import { storeOp } from '../domain/store-op';
import { callEndpoint } from '../domain/call-endpoint';

/** The type registry, the store and endpoint calls under /api/v2/integrations. */
export function integrationCallsRouter(ports: IntegrationsPorts): Router {
  const router = new Router();
  route(router, integrationTypeList, () => ({
    list: typeList().map((t) => ({ type: t.type, subTypes: t.subTypes.map((d) => describeSubType(d)) })),
  }));
  route(router, integrationTypeGet, (ctx) => {
    const described = describeSubType(subTypeOf(ctx.input.params.type, ctx.input.params.subType), true);
    return described as typeof described & { schema: Record<string, unknown> };
  });
  // the store before the generic endpoint route, which would otherwise take `store`
  route(router, integrationStore, (ctx) => storeOp(ports, principalOf(ctx), ctx.input.params.integrationId, ctx.input.body));
  route(router, integrationEndpointCall, (ctx) => callEndpoint(
    ports, principalOf(ctx), ctx.input.params.integrationId, ctx.input.params.endpoint, ctx.input.body,
  ));
  return router;
}
