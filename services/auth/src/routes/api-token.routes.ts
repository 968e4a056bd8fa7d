import Router from '@koa/router';
import { z } from 'zod';
import { inputOf, validate } from '@tabula/http';
import { principalOf, requireUser } from '@tabula/auth';
import type { AuthPorts } from '../app';
import { createApiToken } from '../domain/create-api-token';
import { listApiTokens } from '../domain/list-api-tokens';
import { deleteApiToken } from '../domain/delete-api-token';
import { presentApiToken, presentCreatedApiToken } from '../presenters/api-token.presenter';
import { presentPage } from '../presenters/page.presenter';
import { pageOf, pageQuery } from './paging';

const createBody = z.object({ description: z.string().max(255).optional() });
const orgList = { query: pageQuery };
const orgCreate = { body: createBody };
const orgDelete = { params: z.object({ id: z.string().min(1).max(64) }) };
const baseParams = z.object({ baseId: z.string().min(1).max(64) });
const baseList = { params: baseParams, query: pageQuery };
const baseCreate = { params: baseParams, body: createBody };
const baseDelete = { params: baseParams.extend({ tokenId: z.string().min(1).max(64) }) };

/** Tokens are managed with a signed-in session, never with another API token. */
const session = () => requireUser({ allowApiToken: false });

/** Org-scoped `/api/v1/tokens` and base-scoped `/api/v1/db/meta/projects/:baseId/api-tokens`. */
export function apiTokenRouter(ports: AuthPorts): Router {
  const router = new Router();

  router.get('/api/v1/tokens', session(), validate(orgList), async (ctx) => {
    const page = pageOf(inputOf(ctx, orgList).query);
    const { rows, total } = await listApiTokens(ports, principalOf(ctx), null, page);
    ctx.body = presentPage(rows.map(presentApiToken), total, page);
  });

  router.post('/api/v1/tokens', session(), validate(orgCreate), async (ctx) => {
    const { row, token } = await createApiToken(ports, principalOf(ctx), { ...inputOf(ctx, orgCreate).body, baseId: null });
    ctx.body = presentCreatedApiToken(row, token);
  });

  router.delete('/api/v1/tokens/:id', session(), validate(orgDelete), async (ctx) => {
    await deleteApiToken(ports, principalOf(ctx), inputOf(ctx, orgDelete).params.id, null);
    ctx.body = { msg: 'Token has been deleted successfully' };
  });

  const base = '/api/v1/db/meta/projects/:baseId/api-tokens';
  router.get(base, session(), validate(baseList), async (ctx) => {
    const { params, query } = inputOf(ctx, baseList);
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    const page = pageOf(query);
    const { rows, total } = await listApiTokens(ports, principalOf(ctx), params.baseId, page);
    ctx.body = presentPage(rows.map(presentApiToken), total, page);
  });

  router.post(base, session(), validate(baseCreate), async (ctx) => {
    const { params, body } = inputOf(ctx, baseCreate);
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    const { row, token } = await createApiToken(ports, principalOf(ctx), { ...body, baseId: params.baseId });
    ctx.body = presentCreatedApiToken(row, token);
  });

  router.delete(`${base}/:tokenId`, session(), validate(baseDelete), async (ctx) => {
    const { params } = inputOf(ctx, baseDelete);
    await ports.baseAccess.authorize(principalOf(ctx), params.baseId, 'token.write');
    await deleteApiToken(ports, principalOf(ctx), params.tokenId, params.baseId);
    ctx.body = { msg: 'Token has been deleted successfully' };
  });

  return router;
}
