import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS, type ScopeRule } from '../endpoint/access';
import { pageInfoSchema } from '../common/paging';
import { queryValue, readQuerySchema, recordSchema } from './record-query';

/**
 * NocoDB's v2 data API (`/api/v2/tables/{tableId}/records…`, what
 * nocodb-sdk's `dbDataTableRow` and n8n's "v0.200.0 Onwards" option call):
 * a table named by id, over the same use cases as the v1 records API.
 * Shapes and statuses are NocoDB 0.301.3's: writes answer primary keys only,
 * updates and deletes take their keys in the body.
 */
export const V2_TABLES = '/api/v2/tables/{tableId}';

/** The table `{tableId}`; the data service resolves it by id and checks the permission in its base. */
export const onTableId: ScopeRule<{ params: { tableId: string } }> = { via: 'table', id: (i) => i.params.tableId };

/** Reads need data.read in the table's base, writes data.write (viewer / editor and up), as on v1. */
const read = { callers: USERS, permission: 'data.read', scope: onTableId } as const;
const write = { callers: USERS, permission: 'data.write', scope: onTableId } as const;

export const tableIdParams = z.object({ tableId: z.string().min(1).max(128) });
const recordParams = tableIdParams.extend({ recordId: z.string().min(1).max(1024) });

/** List / count query: v1's read parameters plus the view to read through, by id. */
export const v2ReadQuery = readQuerySchema.extend({
  viewId: queryValue.describe("A view of the table, by id: its filters, sorts and visible fields apply (404 ERR_VIEW_NOT_FOUND when it is none of this table's)"),
});

/** A record's primary key, as v2 writes answer it (`{ Id: 1 }`). */
export const recordKeySchema = z.record(z.string(), z.unknown()).meta({ example: { Id: 1 } });
const keyOrKeys = z.union([recordKeySchema, z.array(recordKeySchema)]);

/** One record or an array of them (NocoDB v2 write bodies); the data service checks each, column by column. */
export const oneOrManyRecordsBody = z.unknown().meta({
  description: 'One record (answered with its key) or an array of records (answered with an array of keys)',
  oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: { type: 'object', additionalProperties: true } }],
});

const pageSchema = z.object({ list: z.array(recordSchema), pageInfo: pageInfoSchema.extend({ isEstimate: z.boolean().optional() }) });
const common = { service: 'data', tags: ['Records (v2)'], params: tableIdParams, errors: [403, 404] } as const;

export const recordListV2 = defineEndpoint({
  ...common, auth: read, id: 'recordListV2', method: 'GET', path: `${V2_TABLES}/records`,
  summary: 'List records (v2: where, sort, fields, limit, offset, viewId)', query: v2ReadQuery, response: pageSchema,
});

export const recordCountV2 = defineEndpoint({
  ...common, auth: read, id: 'recordCountV2', method: 'GET', path: `${V2_TABLES}/records/count`,
  summary: 'Count matching records (v2)', query: v2ReadQuery, response: z.object({ count: z.number() }), example: { response: { count: 42 } },
});

export const recordReadV2 = defineEndpoint({
  ...common, auth: read, id: 'recordReadV2', method: 'GET', path: `${V2_TABLES}/records/{recordId}`,
  summary: 'Read a record (v2; `fields` picks columns; 422 ERR_INVALID_PK_VALUE for an id that is no value of the key\'s type)', params: recordParams, errors: [403, 404, 422],
  query: z.object({ fields: readQuerySchema.shape.fields }), response: recordSchema,
});

export const recordCreateV2 = defineEndpoint({
  ...common, auth: write, id: 'recordCreateV2', method: 'POST', path: `${V2_TABLES}/records`,
  summary: 'Insert one record or several (one transaction); answers their primary keys', body: oneOrManyRecordsBody, response: keyOrKeys,
  errors: [403, 404, 409, 422], example: { request: [{ Title: 'first' }, { Title: 'second' }], response: [{ Id: 1 }, { Id: 2 }] },
});

export const recordUpdateV2 = defineEndpoint({
  ...common, auth: write, id: 'recordUpdateV2', method: 'PATCH', path: `${V2_TABLES}/records`,
  summary: 'Update records by the primary key in each body (one transaction; 404 when one is missing, nothing written)',
  body: oneOrManyRecordsBody, response: keyOrKeys, errors: [403, 404, 409, 422],
  example: { request: [{ Id: 1, Title: 'renamed' }], response: [{ Id: 1 }] },
});

export const recordDeleteV2 = defineEndpoint({
  ...common, auth: write, id: 'recordDeleteV2', method: 'DELETE', path: `${V2_TABLES}/records`,
  summary: 'Delete records by primary key (one transaction; 404 when one is missing, nothing deleted)',
  body: oneOrManyRecordsBody, response: keyOrKeys, example: { request: [{ Id: 1 }], response: [{ Id: 1 }] },
});
