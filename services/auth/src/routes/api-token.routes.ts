import Router from '@koa/router';
import { baseTokenCreate, baseTokenDelete, baseTokenList, orgTokenCreate, orgTokenDelete, orgTokenList, pageOf, resolvePaging } from '@tabula/contracts';
import { route } from '@tabula/http';
import { principalOf } from '@tabula/auth';
import type { AuthPorts } from '../ports';
import { createApiToken } from '../domain/tokens/create-api-token';
import { listApiTokens } from '../domain/tokens/list-api-tokens';
import { deleteApiToken } from '../domain/tokens/delete-api-token';
import { presentApiToken, presentCreatedApiToken } from '../presenters/api-token.presenter';

/** Tokens are managed with a signed-in session, never with another API token. */

/** Org-scoped `/api/v1/tokens` and base-scoped `/api/v1/db/meta/projects/:baseId/api-tokens`. */
export function apiTokenRouter(ports: AuthPorts): Router {
  const router = new Router();

  route(router, orgTokenList, async (ctx) => {
    const page = resolvePaging(ctx.input.query);
    const { rows, total } = await listApiTokens(ports, principalOf(ctx), null, page);
    return pageOf(rows.map(presentApiToken), total, page);
  });

  route(router, orgTokenCreate, async (ctx) => {
    const { row, token } = await createApiToken(ports, principalOf(ctx), { ...ctx.input.body, baseId: null });
    return presentCreatedApiToken(row, token);
  });

  route(router, orgTokenDelete, async (ctx) => {
    await deleteApiToken(ports, principalOf(ctx), ctx.input.params.id, null);
    return { msg: 'Token has been deleted successfully' };
  });

  route(router, baseTokenList, async (ctx) => {
    const { params, query } = ctx.input;
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    const page = resolvePaging(query);
    const { rows, total } = await listApiTokens(ports, principalOf(ctx), params.baseId, page);
    return pageOf(rows.map(presentApiToken), total, page);
  });

  route(router, baseTokenCreate, async (ctx) => {
    const { params, body } = ctx.input;
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    const { row, token } = await createApiToken(ports, principalOf(ctx), { ...body, baseId: params.baseId });
    return presentCreatedApiToken(row, token);
  });

  route(router, baseTokenDelete, async (ctx) => {
    const { params } = ctx.input;
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    await deleteApiToken(ports, principalOf(ctx), params.tokenId, params.baseId);
    return { msg: 'Token has been deleted successfully' };
  });

  return router;
}
