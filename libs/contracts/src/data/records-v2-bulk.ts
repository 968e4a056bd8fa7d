import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS } from '../endpoint/access';
import { queryValue } from './record-query';
import { onTableId, tableIdParams, V2_TABLES } from './records-v2';

/**
 * The rest of nocodb-sdk's v2 data methods, with NocoDB 0.301.3's paths and
 * answers, each over a v1 use case: several lists, group-bys or aggregates in
 * one request (`dbDataTableBulkList`, `dbDataTableBulkGroupList`,
 * `dbDataTableBulkAggregate`), a row moved in the manual order
 * (`dbDataTableRow.move`), a link cell cleared or copied onto another row
 * (`nestedListCopyPasteOrDeleteAll`). POSTs answer 201, as NocoDB's do (no
 * 200 declared there). nocodb-sdk's `action.triggerButton`
 * (`POST /api/v2/tables/{tableId}/button/{fieldId}`) is not served by NocoDB
 * 0.301.3 (404 "Cannot POST …"); Tabula answers it as an unknown path too.
 */
const read = { callers: USERS, permission: 'data.read', scope: onTableId } as const;
const write = { callers: USERS, permission: 'data.write', scope: onTableId } as const;
const common = { service: 'data', tags: ['Records (v2)'], params: tableIdParams, errors: [403, 404] } as const;

/** The requests of a bulk read: an array of objects, each with its `alias` (the answer's key) and its own query. */
const bulkBody = (each: string) => z.unknown().meta({
  description: `An array of \`{ alias, … }\`: ${each}. The answer has one key per alias; an empty or missing array is 400 "Invalid bulkFilterList"`,
  type: 'array', items: { type: 'object', additionalProperties: true, properties: { alias: { type: 'string' } } },
});
const byAlias = z.record(z.string(), z.unknown());
const viewQuery = z.object({ viewId: queryValue.describe('A view of the table, by id (its filters and sorts apply)') });

export const recordBulkListV2 = defineEndpoint({
  ...common, auth: read, id: 'recordBulkListV2', method: 'POST', path: `${V2_TABLES}/bulk/dataList`, status: 201,
  summary: 'Several lists in one request (`{ <alias>: { list, pageInfo } }`)', query: viewQuery,
  body: bulkBody('each a list query (`where`, `sort`, `fields`, `limit`, `offset`, …)'), response: byAlias,
  example: { request: [{ alias: 'big', where: '(Qty,gt,5)', limit: 10 }], response: { big: { list: [{ Id: 2, Qty: 20 }], pageInfo: { totalRows: 1, page: 1, pageSize: 10, isFirstPage: true, isLastPage: true } } } },
});

export const recordBulkGroupV2 = defineEndpoint({
  ...common, auth: read, id: 'recordBulkGroupV2', method: 'POST', path: `${V2_TABLES}/bulk/group`, status: 201,
  summary: 'Several group-bys in one request (`{ <alias>: { list: [{ count, <title>: value }], pageInfo } }`)', query: viewQuery,
  body: bulkBody('each a group-by query (`column_name`, `where`, `sort`, `limit`, `offset`)'), response: byAlias,
});

export const recordBulkAggregateV2 = defineEndpoint({
  ...common, auth: read, id: 'recordBulkAggregateV2', method: 'POST', path: `${V2_TABLES}/bulk/aggregate`, status: 201,
  summary: 'The query\'s aggregations over several filters (`{ <alias>: { <title>: value } }`)',
  query: viewQuery.extend({
    aggregation: z.union([z.string(), z.array(z.string())]).optional().describe('As GET …/aggregate'),
    where: queryValue.describe('Applies to every alias'), filterArrJson: queryValue,
  }),
  body: bulkBody('each a filter (`where`, `filterArrJson`)'), response: byAlias,
});

export const recordMoveV2 = defineEndpoint({
  ...common, auth: write, id: 'recordMoveV2', method: 'POST', path: `${V2_TABLES}/records/{recordId}/move`, status: 201,
  summary: "Move a record in the table's manual order: before the record `before`, or last without it",
  params: tableIdParams.extend({ recordId: z.string().min(1).max(1024) }),
  query: z.object({ before: queryValue.describe('The record to move before (404 when it does not exist)') }),
  response: z.literal(true), example: { response: true },
});

export const linkCopyPasteOrDeleteAllV2 = defineEndpoint({
  ...common, auth: write, id: 'linkCopyPasteOrDeleteAllV2', method: 'POST', path: `${V2_TABLES}/links/{linkFieldId}/records`, status: 201,
  summary: "Clear a record's links (`deleteAll`) or make a record's links those of another (`copy` + `paste`); many-to-many fields only (others: nothing done, empty answer)",
  params: tableIdParams.extend({ linkFieldId: z.string().min(1).max(255) }),
  query: viewQuery,
  body: z.unknown().meta({
    description: '`[{ operation: "deleteAll", rowId, columnId, fk_related_model_id }]`, or a `copy` and a `paste` item (both of one related table)',
    type: 'array', items: { type: 'object', properties: { operation: { enum: ['copy', 'paste', 'deleteAll'] }, rowId: { type: 'string' }, columnId: { type: 'string' }, fk_related_model_id: { type: 'string' } } },
  }),
  response: z.object({ link: z.array(z.unknown()), unlink: z.array(z.unknown()) }).optional(),
  example: { request: [{ operation: 'deleteAll', rowId: '1', columnId: 'c…', fk_related_model_id: 'm…' }], response: { link: [], unlink: [{ Id: 1 }] } },
});
