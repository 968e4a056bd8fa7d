import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { META, tableParams, viewParams } from './paging';
import { viewSchema } from './resources';
import { USERS } from '../endpoint/access';
import { onTable, onView } from './scopes';
import { gridCreateBodySchema } from './view-types';

/** Body of grid view create and view update. */
export const viewBodySchema = z.looseObject({
  title: z.string().trim().min(1, 'title is required').max(255),
  meta: z.record(z.string(), z.unknown()).nullish(),
});

const common = { service: 'meta', tags: ['Views'], errors: [403, 404] } as const;

export const viewList = defineEndpoint({
  ...common, id: 'viewList', method: 'GET', path: `${META}/tables/{tableId}/views`, summary: 'List views of a table',
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  params: tableParams, response: z.object({ list: z.array(viewSchema) }),
});
export const gridCreate = defineEndpoint({
  ...common, id: 'gridCreate', method: 'POST', path: `${META}/tables/{tableId}/grids`, summary: 'Create a grid view',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, body: gridCreateBodySchema, response: viewSchema, example: { request: { title: 'Open orders' } },
});
export const viewUpdate = defineEndpoint({
  ...common, id: 'viewUpdate', method: 'PATCH', path: `${META}/views/{viewId}`, summary: 'Rename a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, body: viewBodySchema.partial(), response: viewSchema,
});
export const viewDelete = defineEndpoint({
  ...common, id: 'viewDelete', method: 'DELETE', path: `${META}/views/{viewId}`, summary: 'Delete a view',
  auth: { callers: USERS, permission: 'schema.write', scope: onView },
  params: viewParams, response: z.boolean(), example: { response: true },
});
