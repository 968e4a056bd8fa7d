import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { listOf } from '../common/paging';
import { baseParams, META, metaPageQuery, tableParams } from './paging';
import { copySchema, tableSchema, tableSummarySchema } from './resources';
import { duplicateSchema } from './bases';
import { USERS } from '../endpoint/access';
import { onBase, onTable } from './scopes';

/** Body of table create; `columns` are checked one by one as column fields. */
export const createTableSchema = z.looseObject({
  title: z.string().trim().min(1, 'title is required').max(255),
  table_name: z.string().max(255).optional(),
  description: z.string().max(8192).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  source_id: z.string().optional(),
  columns: z.array(z.looseObject({})).default([]),
});

/** Body of table update. */
export const updateTableSchema = z.looseObject({
  title: z.string().trim().min(1).max(255).optional(),
  table_name: z.string().max(255).optional(),
  description: z.string().max(8192).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
});

/** Body of table reorder. */
export const reorderTableSchema = z.object({ order: z.coerce.number() });

const tableListQuery = metaPageQuery.extend({
  sourceId: z.string().optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  /** `true`: the junction tables of many-to-many links are listed too (NocoDB hides them unless asked). */
  includeM2M: z.string().optional(),
});
const sourceParams = baseParams.extend({ sourceId: nameRef });
const common = { service: 'meta', tags: ['Tables'], errors: [403, 404] } as const;
const createExample = { title: 'Orders', columns: [{ title: 'Name', uidt: 'SingleLineText' }] };

export const tableList = defineEndpoint({
  ...common, id: 'tableList', method: 'GET', path: `${META}/projects/{baseId}/tables`, summary: 'List tables of a base',
  auth: { callers: USERS, permission: 'base.read', scope: onBase },
  params: baseParams, query: tableListQuery, response: listOf(tableSummarySchema),
});
export const tableListOfSource = defineEndpoint({
  ...common, id: 'tableListOfSource', method: 'GET', path: `${META}/projects/{baseId}/{sourceId}/tables`, summary: 'List tables of a source',
  auth: { callers: USERS, permission: 'base.read', scope: onBase },
  params: sourceParams, query: tableListQuery, response: listOf(tableSummarySchema),
});
export const tableCreate = defineEndpoint({
  ...common, id: 'tableCreate', method: 'POST', path: `${META}/projects/{baseId}/tables`, summary: 'Create a table',
  auth: { callers: USERS, permission: 'schema.write', scope: onBase },
  params: baseParams, body: createTableSchema, response: tableSchema, errors: [403, 404, 409], example: { request: createExample },
});
export const tableCreateInSource = defineEndpoint({
  ...common, id: 'tableCreateInSource', method: 'POST', path: `${META}/projects/{baseId}/{sourceId}/tables`, summary: 'Create a table in a source',
  auth: { callers: USERS, permission: 'schema.write', scope: onBase },
  params: sourceParams, body: createTableSchema, response: tableSchema, errors: [403, 404, 409], example: { request: createExample },
});
export const tableGet = defineEndpoint({
  ...common, id: 'tableGet', method: 'GET', path: `${META}/tables/{tableId}`, summary: 'Read a table with its columns and views',
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  params: tableParams, response: tableSchema,
});
export const tableUpdate = defineEndpoint({
  ...common, id: 'tableUpdate', method: 'PATCH', path: `${META}/tables/{tableId}`, summary: 'Rename or update a table',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, body: updateTableSchema, response: z.object({ msg: z.string() }), example: { request: { title: 'Orders 2024' }, response: { msg: 'The table has been updated successfully' } },
});
export const tableDelete = defineEndpoint({
  ...common, id: 'tableDelete', method: 'DELETE', path: `${META}/tables/{tableId}`, summary: 'Delete a table',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, response: z.boolean(), example: { response: true },
});
export const tableReorder = defineEndpoint({
  ...common, id: 'tableReorder', method: 'POST', path: `${META}/tables/{tableId}/reorder`, summary: 'Move a table',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, body: reorderTableSchema, response: z.object({ success: z.boolean() }), example: { request: { order: 2 }, response: { success: true } },
});
export const tableDuplicate = defineEndpoint({
  ...common, id: 'tableDuplicate', method: 'POST', path: `${META}/duplicate/{baseId}/table/{tableId}`, summary: 'Duplicate a table',
  auth: { callers: USERS, permission: 'schema.write', scope: onBase },
  params: baseParams.extend({ tableId: nameRef }), body: duplicateSchema, response: copySchema,
});
