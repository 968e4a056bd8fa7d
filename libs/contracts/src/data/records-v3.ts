import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS, type ScopeRule } from '../endpoint/access';
import { queryValue, readQuerySchema } from './record-query';
import type { TableRefId } from './table-scope';

/**
 * NocoDB's v3 data API (`/api/v3/data/{baseId}/{tableId}/…`, what n8n's
 * NocoDB node 4 and NocoDB's current documentation call): the v1 use cases
 * on a table named by id in a base named by id, with v3's shapes — a record
 * is `{ id, fields }` (the primary key apart from the other fields), a page
 * is `{ records, next?, prev? }` (links to the neighbouring pages, absent at
 * the ends), writes take arrays of `{ id?, fields }` and answer the written
 * records. Statuses and error bodies are NocoDB 0.301.3's.
 */
export const V3_DATA = '/api/v3/data/{baseId}/{tableId}';

/**
 * The table `{tableId}` of base `{baseId}` (and the view `viewId` of a list
 * or count), resolved as v1's `{baseName}/{tableName}` among the bases the
 * caller may access: a base it has no role in is a missing base, a table of
 * another base a missing table; the permission is checked in that base.
 */
export const onBaseTable: ScopeRule<{ params: { baseId: string; tableId: string }; query?: unknown }> = {
  via: 'tableRef',
  id: (i): TableRefId => ({ baseName: i.params.baseId, tableName: i.params.tableId, viewName: (i.query as { viewId?: string } | undefined)?.viewId }),
};

/** Reads need data.read in the table's base, writes data.write (viewer / editor and up), as on v1. */
const read = { callers: USERS, permission: 'data.read', scope: onBaseTable } as const;
const write = { callers: USERS, permission: 'data.write', scope: onBaseTable } as const;

export const v3TableParams = z.object({ baseId: z.string().min(1).max(128), tableId: z.string().min(1).max(128) });
const recordParams = v3TableParams.extend({ recordId: z.string().min(1).max(1024) });

/**
 * List / count query. `sort` is v3's JSON (`[{"field":"Title","direction":"desc"}]`
 * or one such object; anything else is 400, as NocoDB answers); `where`,
 * `fields`, `viewId` and the paging parameters (`page`/`pageSize`, or
 * `limit`/`offset` as n8n sends them) are v1's.
 */
export const v3ReadQuery = readQuerySchema.pick({ fields: true, where: true, limit: true, offset: true, page: true, pageSize: true }).extend({
  sort: queryValue.describe('Sorts as JSON: `[{"field":"Title","direction":"desc"}]` (field by title or id)'),
  viewId: queryValue.describe("A view of the table, by id: its filters, sorts and visible fields apply"),
});

/** A v3 record: its primary key and the other fields, by title. */
export const v3RecordSchema = z.object({ id: z.unknown(), fields: z.record(z.string(), z.unknown()) }).meta({ example: { id: 1, fields: { Title: 'first' } } });
const v3PageSchema = z.object({
  records: z.array(v3RecordSchema),
  next: z.string().optional().describe('The next page (a URL; absent on the last)'),
  prev: z.string().optional().describe('The previous page (a URL; absent on the first)'),
  nestedNext: z.null().optional().describe('Always null (record lists)'),
});
const writtenSchema = z.object({ records: z.array(v3RecordSchema) });
const deletedSchema = z.object({ records: z.array(z.object({ id: z.unknown(), deleted: z.literal(true) })) });

/** A write body: an array of `{ fields }` (create) or `{ id, fields }` (update), or one of them; `{ id }` items to delete. */
export const v3RecordsBody = z.unknown().meta({
  description: 'An array of `{ "id"?: …, "fields": { <title>: value } }` (or one such object); deletes take `[{ "id": … }]`',
  oneOf: [{ type: 'array', items: { type: 'object', additionalProperties: true } }, { type: 'object', additionalProperties: true }],
});

/** A base, table or field that does not exist (or is hidden) answers 422, as NocoDB's v3 does; a missing record 404. */
const common = { service: 'data', tags: ['Records (v3)'], params: v3TableParams, errors: [403, 404, 422] } as const;

export const recordListV3 = defineEndpoint({
  ...common, auth: read, id: 'recordListV3', method: 'GET', path: `${V3_DATA}/records`,
  summary: 'List records (v3: where, sort, fields, page, pageSize, viewId; `{ records, next?, prev?, nestedNext }`)', query: v3ReadQuery, response: v3PageSchema,
  example: { response: { records: [{ id: 1, fields: { Title: 'first' } }], next: 'http://localhost:8080/api/v3/data/p0/m0/records?page=2&pageSize=25', nestedNext: null } },
});

export const recordCountV3 = defineEndpoint({
  ...common, auth: read, id: 'recordCountV3', method: 'GET', path: `${V3_DATA}/count`,
  summary: 'Count matching records (v3)', query: v3ReadQuery.pick({ where: true, viewId: true }), response: z.object({ count: z.number() }),
  example: { response: { count: 42 } },
});

export const recordReadV3 = defineEndpoint({
  ...common, auth: read, id: 'recordReadV3', method: 'GET', path: `${V3_DATA}/records/{recordId}`,
  summary: 'Read a record (v3: `{ id, fields }`; `fields` picks fields)', params: recordParams,
  query: v3ReadQuery.pick({ fields: true }), response: v3RecordSchema,
});

export const recordCreateV3 = defineEndpoint({
  ...common, auth: write, id: 'recordCreateV3', method: 'POST', path: `${V3_DATA}/records`,
  summary: 'Insert records `[{ fields }]` (one transaction); answers them', body: v3RecordsBody, response: writtenSchema,
  errors: [400, 403, 404, 409, 422], example: { request: [{ fields: { Title: 'first' } }], response: { records: [{ id: 1, fields: { Title: 'first' } }] } },
});

export const recordUpdateV3 = defineEndpoint({
  ...common, auth: write, id: 'recordUpdateV3', method: 'PATCH', path: `${V3_DATA}/records`,
  summary: 'Update records `[{ id, fields }]` (one transaction; 404 when one is missing, nothing written); answers them',
  body: v3RecordsBody, response: writtenSchema, errors: [400, 403, 404, 409, 422],
  example: { request: [{ id: 1, fields: { Title: 'renamed' } }], response: { records: [{ id: 1, fields: { Title: 'renamed' } }] } },
});

export const recordDeleteV3 = defineEndpoint({
  ...common, auth: write, id: 'recordDeleteV3', method: 'DELETE', path: `${V3_DATA}/records`,
  summary: 'Delete records `[{ id }]` (one transaction; 404 when one is missing, nothing deleted)',
  body: v3RecordsBody, response: deletedSchema, errors: [400, 403, 404, 422],
  example: { request: [{ id: 1 }], response: { records: [{ id: 1, deleted: true }] } },
});

/** Links: the records linked to `{recordId}` through the link field `{linkFieldId}`. */
const LINKS = `${V3_DATA}/links/{linkFieldId}/{recordId}`;
const linkParams = v3TableParams.extend({ linkFieldId: z.string().min(1).max(255), recordId: z.string().min(1).max(1024) });
const linkCommon = { ...common, params: linkParams } as const;

/** The related records to link or unlink: `[{ id }]` (or one `{ id }`). */
export const v3LinkBody = z.unknown().meta({
  description: 'Related records: an array of `{ "id": … }` or of ids (or one)',
  oneOf: [{ type: 'array', items: { type: 'object', properties: { id: {} } } }, { type: 'object', properties: { id: {} } }],
});

export const linkListV3 = defineEndpoint({
  ...linkCommon, auth: read, id: 'linkListV3', method: 'GET', path: LINKS,
  summary: 'Records linked to a record (v3: `{ records: [{ id, fields }], next?, prev? }`, key and display value unless `fields`; where, sort, fields, page, pageSize)',
  query: v3ReadQuery.omit({ viewId: true }), response: v3PageSchema,
});

export const linkCreateV3 = defineEndpoint({
  ...linkCommon, auth: write, id: 'linkCreateV3', method: 'POST', path: LINKS,
  summary: 'Link records `[{ id }]` (one transaction; 404 when one is missing, nothing written)',
  body: v3LinkBody, response: z.object({ success: z.literal(true) }), errors: [400, 403, 404, 422],
  example: { request: [{ id: 1 }], response: { success: true } },
});

export const linkDeleteV3 = defineEndpoint({
  ...linkCommon, auth: write, id: 'linkDeleteV3', method: 'DELETE', path: LINKS,
  summary: 'Unlink records `[{ id }]` (one transaction; records not linked are left alone)',
  body: v3LinkBody, response: z.object({ success: z.literal(true) }), errors: [400, 403, 404, 422],
  example: { request: [{ id: 1 }], response: { success: true } },
});
