import { z } from 'zod';
import { defineEndpoint, type AnyEndpoint } from '../endpoint/define-endpoint';
import { pageInfoSchema } from '../common/paging';
import { insertQuerySchema, readQuerySchema, recordBodySchema, recordSchema } from './record-query';
import { USERS } from '../endpoint/access';
import { tableRefScope } from './table-scope';

const tableParams = z.object({ orgs: z.string(), baseName: z.string(), tableName: z.string() });
const viewParams = tableParams.extend({ viewName: z.string() });
const pageSchema = z.object({ list: z.array(recordSchema), pageInfo: pageInfoSchema.extend({ isEstimate: z.boolean().optional() }) });
const common = { service: 'data', errors: [403, 404] } as const;
/** Reads need data.read in the table's base, writes data.write (viewer / editor and up). */
const read = { callers: USERS, permission: 'data.read', scope: tableRefScope } as const;
const write = { callers: USERS, permission: 'data.write', scope: tableRefScope } as const;

function recordEndpoints<P extends typeof tableParams | typeof viewParams>(params: P, base: string, s: '' | 'InView') {
  const rowParams = params.extend({ rowId: z.string() });
  const tags = s ? ['Records in views'] : ['Records'];
  const of = s ? ' through a view' : '';
  return {
    findOne: defineEndpoint({
      ...common, auth: read, tags, id: `recordFindOne${s}`, method: 'GET', path: `${base}/find-one`, summary: `First matching record${of} (JSON null when none)`,
      params, query: readQuerySchema, response: recordSchema.nullable(),
    }),
    count: defineEndpoint({
      ...common, auth: read, tags, id: `recordCount${s}`, method: 'GET', path: `${base}/count`, summary: `Count matching records${of}`,
      params, query: readQuerySchema, response: z.object({ count: z.number() }), example: { response: { count: 42 } },
    }),
    list: defineEndpoint({
      ...common, auth: read, tags, id: `recordList${s}`, method: 'GET', path: base, summary: `List records${of}`,
      params, query: readQuerySchema, response: pageSchema,
    }),
    create: defineEndpoint({
      ...common, auth: write, tags, id: `recordCreate${s}`, method: 'POST', path: base, summary: `Insert a record${of}`,
      params, query: insertQuerySchema, body: recordBodySchema, response: recordSchema, errors: [403, 404, 409, 422],
      example: { request: { Title: 'first' }, response: { Id: 1, Title: 'first' } },
    }),
    exists: defineEndpoint({
      ...common, auth: read, tags, id: `recordExists${s}`, method: 'GET', path: `${base}/{rowId}/exist`, summary: `Does a record exist${of}`,
      params: rowParams, response: z.boolean(),
    }),
    read: defineEndpoint({
      ...common, auth: read, tags, id: `recordRead${s}`, method: 'GET', path: `${base}/{rowId}`, summary: `Read a record${of}`,
      params: rowParams, response: recordSchema,
    }),
    update: defineEndpoint({
      ...common, auth: write, tags, id: `recordUpdate${s}`, method: 'PATCH', path: `${base}/{rowId}`, summary: `Update a record${of}`,
      params: rowParams, body: recordBodySchema, response: recordSchema, errors: [403, 404, 409, 422],
    }),
    delete: defineEndpoint({
      ...common, auth: write, tags, id: `recordDelete${s}`, method: 'DELETE', path: `${base}/{rowId}`, summary: `Delete a record${of}`,
      params: rowParams, response: z.number().describe('Rows deleted'), example: { response: 1 },
    }),
  };
}

const TABLE = '/api/v1/db/data/{orgs}/{baseName}/{tableName}';

/** Records of a table. */
export const recordsOfTable = recordEndpoints(tableParams, TABLE, '');
/** Records through a view (its filters, sorts and visible fields). */
export const recordsOfView = recordEndpoints(viewParams, `${TABLE}/views/{viewName}`, 'InView');

/** Every records endpoint as a list. */
export const recordEndpointList: AnyEndpoint[] = [...Object.values(recordsOfView), ...Object.values(recordsOfTable)];
