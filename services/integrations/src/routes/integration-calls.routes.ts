import type Router from '@koa/router';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { integrationEndpointCall, integrationStore, integrationTypeGet, integrationTypeList } from '@tabula/contracts';
import type { IntegrationsPorts } from '../ports';
import type { IntegrationRow } from '../repositories/integration.repository';
import { describeSubType, subTypeOf, typeList } from '../registry/type-registry';
import { storeOp } from '../domain/store-op';
import { callEndpoint } from '../domain/call-endpoint';

/**
 * The type registry (static descriptions, any signed-in caller), the store and
 * endpoint calls (an integration's records and its stored credentials at
 * work: managers only, as declared on their contracts) under /api/v2/integrations.
 */
export function integrationCallsRouter(ports: IntegrationsPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);
  route(router, integrationTypeList, () => ({
    list: typeList().map((t) => ({ type: t.type, subTypes: t.subTypes.map((d) => describeSubType(d)) })),
  }));
  route(router, integrationTypeGet, (ctx) => {
    const described = describeSubType(subTypeOf(ctx.input.params.type, ctx.input.params.subType), true);
    return described as typeof described & { schema: Record<string, unknown> };
  });
  // the store before the generic endpoint route, which would otherwise take `store`
  route(router, integrationStore, (ctx) => storeOp(ports, scopeOf<IntegrationRow>(ctx), ctx.input.body));
  route(router, integrationEndpointCall, (ctx) => callEndpoint(ports, scopeOf<IntegrationRow>(ctx), ctx.input.params.endpoint, ctx.input.body));
  return router;
}
