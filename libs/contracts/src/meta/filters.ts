import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { META, viewParams } from './paging';
import { filterSchema } from './resources';
import { USERS } from '../endpoint/access';
import { onFilter, onFilterGroup, onView } from './scopes';

/** Body of a view filter (groups may nest children). */
export const filterBodySchema: z.ZodType<FilterBody> = z.looseObject({
  fk_column_id: z.string().nullish(),
  comparison_op: z.string().max(32).nullish(),
  comparison_sub_op: z.string().max(32).nullish(),
  value: z.unknown().optional(),
  fk_parent_id: z.string().nullish(),
  is_group: z.boolean().optional(),
  logical_op: z.enum(['and', 'or', 'not']).nullish(),
  /** Nested filters of a group: checked for depth and size (iteratively) before each is validated as a filter. */
  children: z.array(z.unknown()).max(1000).optional(),
});

/** A parsed filter body. */
export interface FilterBody {
  fk_column_id?: string | null;
  comparison_op?: string | null;
  comparison_sub_op?: string | null;
  value?: unknown;
  fk_parent_id?: string | null;
  is_group?: boolean;
  logical_op?: 'and' | 'or' | 'not' | null;
  children?: unknown[];
  [key: string]: unknown;
}

const filterParams = z.object({ filterId: nameRef });
const common = { service: 'meta', tags: ['Filters'], errors: [403, 404] } as const;
const list = z.object({ list: z.array(filterSchema) });

export const filterList = defineEndpoint({
  ...common, id: 'filterList', method: 'GET', path: `${META}/views/{viewId}/filters`, summary: 'List filters of a view (trees)',
  auth: { callers: USERS, permission: 'base.read', scope: onView },
  params: viewParams, response: list,
});
export const filterCreate = defineEndpoint({
  ...common, id: 'filterCreate', method: 'POST', path: `${META}/views/{viewId}/filters`, summary: 'Add a filter to a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, body: filterBodySchema, response: filterSchema,
  example: { request: { fk_column_id: 'cl1', comparison_op: 'eq', value: 'open' } },
});
export const filterChildren = defineEndpoint({
  ...common, id: 'filterChildren', method: 'GET', path: `${META}/filters/{parentId}/children`, summary: 'Children of a filter group',
  auth: { callers: USERS, permission: 'base.read', scope: onFilterGroup },
  params: z.object({ parentId: nameRef }), response: list,
});
export const filterGet = defineEndpoint({
  ...common, id: 'filterGet', method: 'GET', path: `${META}/filters/{filterId}`, summary: 'Read a filter', params: filterParams, response: filterSchema,
  auth: { callers: USERS, permission: 'base.read', scope: onFilter },
});
export const filterUpdate = defineEndpoint({
  ...common, id: 'filterUpdate', method: 'PATCH', path: `${META}/filters/{filterId}`, summary: 'Change a filter',
  auth: { callers: USERS, permission: 'schema.write', scope: onFilter },
  params: filterParams, body: filterBodySchema, response: filterSchema,
});
export const filterDelete = defineEndpoint({
  ...common, id: 'filterDelete', method: 'DELETE', path: `${META}/filters/{filterId}`, summary: 'Delete a filter',
  auth: { callers: USERS, permission: 'schema.write', scope: onFilter },
  params: filterParams, response: z.boolean(), example: { response: true },
});
