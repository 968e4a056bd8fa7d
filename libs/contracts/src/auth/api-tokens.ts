import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { idRef, msgSchema } from '../common/refs';
import { listOf } from '../common/paging';
import { authPageQuery } from './paging';
import { SESSION } from '../endpoint/access';

/** Body of token create. */
export const apiTokenCreateBodySchema = z.object({ description: z.string().max(255).optional() });
const apiTokenSchema = z.object({
  id: z.string(), description: z.string().nullable(), fk_user_id: z.string(), base_id: z.string().optional(), created_at: z.string(),
});
const createdSchema = apiTokenSchema.extend({ token: z.string().describe('Shown once') });
const baseParams = z.object({ baseId: idRef });
const tokenExample = { id: 'tk1', description: 'ci', fk_user_id: 'us1', created_at: '2024-01-01T00:00:00.000Z' };
const deleted = { msg: 'Token has been deleted successfully' };
const common = { service: 'auth', tags: ['API Tokens'] } as const;
/** Org tokens: the user's own, managed with a session (list and create answer for the caller; delete is `self`). */
const own = { callers: SESSION } as const;
/** A base's tokens: managed with a session by those who may manage the base's tokens. */
const ofBase = { callers: SESSION, permission: 'token.write', scope: { via: 'base', id: (i: { params: { baseId: string } }) => i.params.baseId } } as const;

export const orgTokenList = defineEndpoint({
  ...common, id: 'orgTokenList', auth: own, method: 'GET', path: '/api/v1/tokens', summary: 'List my API tokens',
  query: authPageQuery, response: listOf(apiTokenSchema),
});
export const orgTokenCreate = defineEndpoint({
  ...common, id: 'orgTokenCreate', auth: own, method: 'POST', path: '/api/v1/tokens', summary: 'Create an API token',
  body: apiTokenCreateBodySchema, response: createdSchema,
  example: { request: { description: 'ci' }, response: { ...tokenExample, token: 'a1b2c3' } },
});
export const orgTokenDelete = defineEndpoint({
  ...common, id: 'orgTokenDelete', method: 'DELETE', path: '/api/v1/tokens/{id}', summary: 'Revoke an API token',
  auth: { callers: SESSION, permission: 'self', scope: { via: 'orgToken', id: (i) => i.params.id } },
  params: z.object({ id: idRef }), response: msgSchema, errors: [404], example: { response: deleted },
});
export const baseTokenList = defineEndpoint({
  ...common, id: 'baseTokenList', auth: ofBase, method: 'GET', path: '/api/v1/db/meta/projects/{baseId}/api-tokens', summary: 'List API tokens of a base',
  params: baseParams, query: authPageQuery, response: listOf(apiTokenSchema), errors: [403, 404],
});
export const baseTokenCreate = defineEndpoint({
  ...common, id: 'baseTokenCreate', auth: ofBase, method: 'POST', path: '/api/v1/db/meta/projects/{baseId}/api-tokens', summary: 'Create an API token of a base',
  params: baseParams, body: apiTokenCreateBodySchema, response: createdSchema, errors: [403, 404],
  example: { request: { description: 'ci' }, response: { ...tokenExample, base_id: 'p1', token: 'a1b2c3' } },
});
export const baseTokenDelete = defineEndpoint({
  ...common, id: 'baseTokenDelete', auth: ofBase, method: 'DELETE', path: '/api/v1/db/meta/projects/{baseId}/api-tokens/{tokenId}', summary: 'Revoke an API token of a base',
  params: baseParams.extend({ tokenId: idRef }), response: msgSchema, errors: [403, 404], example: { response: deleted },
});
