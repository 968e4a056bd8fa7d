import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { hookRef, timestamp } from '../common/refs';
import { pageInfoSchema, pagingQuery } from '../common/paging';
import { hookBodySchema, hookFilterBodySchema, hookPatchSchema, sampleParamsSchema, testHookBodySchema } from './hook-body';
import { USERS } from '../endpoint/access';

/** Paging query (page/pageSize or limit/offset): the one paging rule of every list. */
export const hookListQuery = pagingQuery;

/** A hook as the API shows it (never its secret, except once on create and rotate). */
export const hookSchema = z.looseObject({
  id: z.string().optional(), fk_model_id: z.string().optional(), title: z.string().optional(), description: z.string().nullish(),
  event: z.string().optional(), operation: z.union([z.string(), z.array(z.string())]).optional(), type: z.string().optional(),
  notification: z.unknown().optional(), active: z.boolean().optional(), async: z.boolean().optional(), version: z.string().optional(),
  retries: z.number().optional(), retry_interval: z.number().optional(), timeout: z.number().optional(),
  condition: z.boolean().optional(), trigger_field: z.boolean().optional(), trigger_fields: z.array(z.string()).optional(),
  secret: z.string().optional().describe('Signing secret (Standard Webhooks); shown on create and on rotate_secret only'),
  created_at: timestamp.optional(), updated_at: timestamp.optional(),
});
const hookLogSchema = z.looseObject({ id: z.string().optional(), fk_hook_id: z.string().optional(), response: z.unknown().optional() });
const hookFilterSchema = z.looseObject({ id: z.string().optional(), fk_hook_id: z.string().optional(), comparison_op: z.string().nullish() });
const page = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), pageInfo: pageInfoSchema });
const tableParams = z.object({ tableId: hookRef });
const hookParams = z.object({ hookId: hookRef });
const common = { service: 'hooks', tags: ['Hooks'], errors: [403, 404] } as const;
/** Checked on the path's table (meta says which base it is in). */
const onTable = { via: 'table', id: (i: { params: { tableId: string } }) => i.params.tableId } as const;
/** Checked on the path's hook (its base). */
const onHook = { via: 'hook', id: (i: { params: { hookId: string } }) => i.params.hookId } as const;
const M = '/api/v1/db/meta';
const hookExample = {
  title: 'notify', event: 'after', operation: 'insert', version: 'v2',
  notification: { type: 'URL', payload: { method: 'POST', path: 'https://example.com/hook' } },
};

export const hookList = defineEndpoint({
  ...common, id: 'hookList', method: 'GET', path: `${M}/tables/{tableId}/hooks`, summary: 'List hooks of a table',
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  params: tableParams, query: hookListQuery, response: page(hookSchema),
});
export const hookCreate = defineEndpoint({
  ...common, id: 'hookCreate', method: 'POST', path: `${M}/tables/{tableId}/hooks`, summary: 'Create a webhook',
  auth: { callers: USERS, permission: 'hook.write', scope: onTable },
  params: tableParams, body: hookBodySchema, response: hookSchema, example: { request: hookExample },
});
export const hookUpdate = defineEndpoint({
  ...common, id: 'hookUpdate', method: 'PATCH', path: `${M}/hooks/{hookId}`, summary: 'Change a hook (rotate_secret: true issues a new secret)',
  auth: { callers: USERS, permission: 'hook.write', scope: onHook },
  params: hookParams, body: hookPatchSchema, response: hookSchema, example: { request: { active: false } },
});
export const hookDelete = defineEndpoint({
  ...common, id: 'hookDelete', method: 'DELETE', path: `${M}/hooks/{hookId}`, summary: 'Delete a hook',
  auth: { callers: USERS, permission: 'hook.write', scope: onHook },
  params: hookParams, response: z.boolean(), example: { response: true },
});
export const hookLogList = defineEndpoint({
  ...common, id: 'hookLogList', method: 'GET', path: `${M}/hooks/{hookId}/logs`, summary: 'Delivery log of a hook',
  auth: { callers: USERS, permission: 'hook.write', scope: onHook },
  params: hookParams, query: hookListQuery, response: page(hookLogSchema),
});
export const hookFilterList = defineEndpoint({
  ...common, id: 'hookFilterList', method: 'GET', path: `${M}/hooks/{hookId}/filters`, summary: 'Conditions of a hook',
  auth: { callers: USERS, permission: 'base.read', scope: onHook },
  params: hookParams, response: page(hookFilterSchema),
});
export const hookFilterCreate = defineEndpoint({
  ...common, id: 'hookFilterCreate', method: 'POST', path: `${M}/hooks/{hookId}/filters`, summary: 'Add a condition to a hook',
  auth: { callers: USERS, permission: 'hook.write', scope: onHook },
  params: hookParams, body: hookFilterBodySchema, response: hookFilterSchema,
  example: { request: { fk_column_id: 'cl1', comparison_op: 'eq', value: 'open' } },
});
export const hookTest = defineEndpoint({
  ...common, id: 'hookTest', method: 'POST', path: `${M}/tables/{tableId}/hooks/test`, summary: 'Call a hook configuration once with a sample',
  auth: { callers: USERS, permission: 'hook.write', scope: onTable },
  params: tableParams, body: testHookBodySchema, response: z.object({ msg: z.string() }),
  example: { request: { hook: hookExample }, response: { msg: 'The hook has been tested successfully' } },
});
export const hookSamplePayload = defineEndpoint({
  ...common, id: 'hookSamplePayload', method: 'GET', path: `${M}/tables/{tableId}/hooks/samplePayload/{event}/{operation}/{version}`,
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  summary: 'A sample payload of an event', params: sampleParamsSchema,
  query: z.looseObject({ includeUser: z.enum(['true', 'false']).optional() }), response: z.unknown(),
});
export const hookTrigger = defineEndpoint({
  ...common, id: 'hookTrigger', method: 'POST', path: '/api/v2/meta/hooks/{hookId}/trigger/{rowId}', summary: 'Fire a manual hook for a record',
  auth: { callers: USERS, permission: 'data.write', scope: onHook },
  params: z.object({ hookId: hookRef, rowId: hookRef }), response: z.object({ msg: z.string(), delivery_id: z.string() }),
});
