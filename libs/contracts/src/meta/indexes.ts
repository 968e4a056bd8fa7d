import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { META, tableParams } from './paging';
import { USERS } from '../endpoint/access';
import { onTable } from './scopes';

/** Most columns one index may cover. */
export const MAX_INDEX_COLUMNS = 8;

/** Body of index create: the columns (ids or titles, in index order) and whether values must be unique. */
export const createIndexSchema = z.object({
  /** Column ids or titles, in index order; 1–8, no repeats. */
  columns: z.array(z.string().min(1, 'column must not be empty').max(255)).min(1, 'columns is required')
    .max(MAX_INDEX_COLUMNS, `an index covers at most ${MAX_INDEX_COLUMNS} columns`),
  /** A unique index (rows with equal values are refused from then on). Default false. */
  unique: z.boolean().default(false),
});

/** Where an index comes from: `manual` ones (made on request) are the only ones that can be dropped here. */
export const indexOriginSchema = z.enum(['primary', 'unique', 'link', 'system', 'view', 'manual', 'other']);

/** One physical index of a table. */
export const tableIndexSchema = z.object({
  /** The index name in the database (also its id in the API). */
  id: z.string(),
  fk_model_id: z.string(),
  unique: z.boolean(),
  origin: indexOriginSchema,
  /** Covered columns in index order (`id`/`title` null for a column meta does not know). */
  columns: z.array(z.object({ id: z.string().nullable(), title: z.string().nullable(), column_name: z.string() })),
});

const indexParams = z.object({ tableId: nameRef, indexId: nameRef });
const common = { service: 'meta', tags: ['Indexes'], errors: [403, 404] } as const;

export const indexList = defineEndpoint({
  ...common, id: 'indexList', method: 'GET', path: `${META}/tables/{tableId}/indexes`, summary: 'List the indexes of a table',
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  params: tableParams, response: z.object({ list: z.array(tableIndexSchema) }),
});
export const indexCreate = defineEndpoint({
  ...common, id: 'indexCreate', method: 'POST', path: `${META}/tables/{tableId}/indexes`, summary: 'Add an index (CONCURRENTLY on PostgreSQL)',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  description: 'Columns by id or title, at most 8; virtual and long-text columns cannot be indexed; an index over the same columns answers 409.',
  params: tableParams, body: createIndexSchema, response: tableIndexSchema, errors: [400, 403, 404, 409],
  example: { request: { columns: ['Status', 'Due'], unique: false } },
});
export const indexDelete = defineEndpoint({
  ...common, id: 'indexDelete', method: 'DELETE', path: `${META}/tables/{tableId}/indexes/{indexId}`, summary: 'Drop an index made on request',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: indexParams, response: z.object({ success: z.boolean() }), errors: [400, 403, 404], example: { response: { success: true } },
});
