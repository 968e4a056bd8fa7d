import type Router from '@koa/router';
import { baseTokenCreate, baseTokenDelete, baseTokenList, orgTokenCreate, orgTokenDelete, orgTokenList, pageOf, resolvePaging } from '@tabula/contracts';
import { guardedRouter, route, scopeOf, type Authorizer } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import type { BaseRef } from '../domain/auth-access';
import { createBaseToken, createOrgToken } from '../domain/tokens/create-api-token';
import { listBaseTokens, listOrgTokens } from '../domain/tokens/list-api-tokens';
import { deleteBaseToken, deleteOrgToken } from '../domain/tokens/delete-api-token';
import type { ApiTokenRow } from '../repositories/api-token.repository';
import { presentApiToken, presentCreatedApiToken } from '../presenters/api-token.presenter';

/**
 * Org-scoped `/api/v1/tokens` and base-scoped `/api/v1/db/meta/projects/:baseId/api-tokens`;
 * tokens are managed with a signed-in session, never with another API token (the contracts say so).
 */
export function apiTokenRouter(ports: AuthPorts, authorizer: Authorizer): Router {
  const router = guardedRouter(authorizer);

  route(router, orgTokenList, async (ctx) => {
    const page = resolvePaging(ctx.input.query);
    const { rows, total } = await listOrgTokens(ports, principalOf(ctx), page);
    return pageOf(rows.map(presentApiToken), total, page);
  });

  route(router, orgTokenCreate, async (ctx) => {
    const { row, token } = await createOrgToken(ports, principalOf(ctx), ctx.input.body);
    return presentCreatedApiToken(row, token);
  });

  route(router, orgTokenDelete, async (ctx) => {
    await deleteOrgToken(ports, scopeOf<ApiTokenRow>(ctx));
    return { msg: 'Token has been deleted successfully' };
  });

  route(router, baseTokenList, async (ctx) => {
    const page = resolvePaging(ctx.input.query);
    const { rows, total } = await listBaseTokens(ports, scopeOf<BaseRef>(ctx), page);
    return pageOf(rows.map(presentApiToken), total, page);
  });

  route(router, baseTokenCreate, async (ctx) => {
    const { row, token } = await createBaseToken(ports, scopeOf<BaseRef>(ctx), ctx.input.body);
    return presentCreatedApiToken(row, token);
  });

  route(router, baseTokenDelete, async (ctx) => {
    await deleteBaseToken(ports, scopeOf<BaseRef>(ctx), ctx.input.params.tokenId);
    return { msg: 'Token has been deleted successfully' };
  });

  return router;
}
