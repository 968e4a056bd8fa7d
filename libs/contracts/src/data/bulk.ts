import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { allQuerySchema, insertQuerySchema, recordBodySchema, recordSchema, recordsBodySchema } from './record-query';
import { USERS } from '../endpoint/access';
import { tableRefScope } from './table-scope';

const params = z.object({ orgs: z.string(), baseName: z.string(), tableName: z.string() });
const BULK = '/api/v1/db/data/bulk/{orgs}/{baseName}/{tableName}';
const common = { service: 'data', auth: { callers: USERS, permission: 'data.write', scope: tableRefScope }, tags: ['Bulk'], params, errors: [403, 404, 413, 422] } as const;
const keys = z.array(recordSchema.nullable());

export const bulkUpdateAll = defineEndpoint({
  ...common, id: 'bulkUpdateAll', method: 'PATCH', path: `${BULK}/all`, summary: 'Update every matching record (one transaction)',
  query: allQuerySchema, body: recordBodySchema, response: z.number().describe('Rows updated'),
});
export const bulkDeleteAll = defineEndpoint({
  ...common, id: 'bulkDeleteAll', method: 'DELETE', path: `${BULK}/all`, summary: 'Delete every matching record (one transaction)',
  query: allQuerySchema, response: z.number().describe('Rows deleted'),
});
export const bulkUpsert = defineEndpoint({
  ...common, id: 'bulkUpsert', method: 'POST', path: `${BULK}/upsert`, summary: 'Insert or update records by primary key',
  query: insertQuerySchema, body: recordsBodySchema, response: z.array(recordSchema),
});
export const bulkInsert = defineEndpoint({
  ...common, id: 'bulkInsert', method: 'POST', path: BULK, summary: 'Insert records (one transaction)',
  query: insertQuerySchema, body: recordsBodySchema, response: z.array(recordSchema),
  example: { request: [{ Title: 'a' }, { Title: 'b' }], response: [{ Id: 1 }, { Id: 2 }] },
});
export const bulkUpdate = defineEndpoint({
  ...common, id: 'bulkUpdate', method: 'PATCH', path: BULK, summary: 'Update records by primary key (one transaction)',
  body: recordsBodySchema, response: keys,
});
export const bulkDelete = defineEndpoint({
  ...common, id: 'bulkDelete', method: 'DELETE', path: BULK, summary: 'Delete records by primary key (one transaction)',
  body: recordsBodySchema, response: keys,
});
