import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { listOf } from '../common/paging';
import { META, viewParams } from './paging';
import { sortSchema } from './resources';
import { USERS } from '../endpoint/access';
import { onSort, onView } from './scopes';

const direction = z.enum(['asc', 'desc', 'count-asc', 'count-desc']);

/** Body of sort create. */
export const createSortSchema = z.object({
  fk_column_id: z.string().min(1, 'fk_column_id is required'),
  direction: direction.default('asc'),
  push_to_top: z.boolean().default(false),
  fk_level_id: z.string().optional(),
});

/** Body of sort update. */
export const updateSortSchema = z.object({ fk_column_id: z.string().min(1).optional(), direction: direction.optional() });

const sortParams = z.object({ sortId: nameRef });
const common = { service: 'meta', tags: ['Sorts'], errors: [403, 404] } as const;

export const sortList = defineEndpoint({
  ...common, id: 'sortList', method: 'GET', path: `${META}/views/{viewId}/sorts`, summary: 'List sorts of a view',
  auth: { callers: USERS, permission: 'base.read', scope: onView },
  params: viewParams, response: listOf(sortSchema),
});
export const sortCreate = defineEndpoint({
  ...common, id: 'sortCreate', method: 'POST', path: `${META}/views/{viewId}/sorts`, summary: 'Add a sort to a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, body: createSortSchema, response: sortSchema, example: { request: { fk_column_id: 'cl1', direction: 'desc' } },
});
export const sortGet = defineEndpoint({
  ...common, id: 'sortGet', method: 'GET', path: `${META}/sorts/{sortId}`, summary: 'Read a sort', params: sortParams, response: sortSchema,
  auth: { callers: USERS, permission: 'base.read', scope: onSort },
});
export const sortUpdate = defineEndpoint({
  ...common, id: 'sortUpdate', method: 'PATCH', path: `${META}/sorts/{sortId}`, summary: 'Change a sort',
  auth: { callers: USERS, permission: 'schema.write', scope: onSort },
  params: sortParams, body: updateSortSchema, response: sortSchema,
});
export const sortDelete = defineEndpoint({
  ...common, id: 'sortDelete', method: 'DELETE', path: `${META}/sorts/{sortId}`, summary: 'Delete a sort',
  auth: { callers: USERS, permission: 'schema.write', scope: onSort },
  params: sortParams, response: z.object({ success: z.boolean() }), example: { response: { success: true } },
});
