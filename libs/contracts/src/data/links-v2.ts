import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { USERS } from '../endpoint/access';
import { pageInfoSchema } from '../common/paging';
import { readQuerySchema, recordSchema } from './record-query';
import { onTableId, tableIdParams, V2_TABLES } from './records-v2';

/**
 * NocoDB's v2 links (`/api/v2/tables/{tableId}/links/{linkFieldId}/records/{recordId}`,
 * nocodb-sdk's `nestedList` / `nestedLink` / `nestedUnlink`): the records
 * linked to a record through a link field, over the v1 nested use cases.
 */
const LINKS = `${V2_TABLES}/links/{linkFieldId}/records/{recordId}`;

const params = tableIdParams.extend({
  /** The link field, by id (or title). */
  linkFieldId: z.string().min(1).max(255),
  recordId: z.string().min(1).max(1024),
});

/** Listing links needs data.read in the table's base; linking and unlinking data.write. */
const read = { callers: USERS, permission: 'data.read', scope: onTableId } as const;
const write = { callers: USERS, permission: 'data.write', scope: onTableId } as const;

/** The related records to link or unlink: `[{Id}]`, `[id]` or one `{Id}`. */
export const linkRefsBody = z.unknown().meta({
  description: 'Related records: an array of `{ <primary key>: value }` objects or of ids, or one such object',
  oneOf: [{ type: 'array', items: {} }, { type: 'object', additionalProperties: true }],
});

const common = { service: 'data', tags: ['Records (v2)'], params, errors: [403, 404] } as const;

export const linkListV2 = defineEndpoint({
  ...common, auth: read, id: 'linkListV2', method: 'GET', path: LINKS,
  summary: 'Records linked to a record (v2: primary key and display value unless `fields`; paged, where/sort)',
  query: readQuerySchema.pick({ fields: true, sort: true, where: true, limit: true, offset: true, page: true, pageSize: true }),
  response: z.object({ list: z.array(recordSchema), pageInfo: pageInfoSchema }),
});

export const linkCreateV2 = defineEndpoint({
  ...common, auth: write, id: 'linkCreateV2', method: 'POST', path: LINKS, status: 201,
  summary: 'Link records (one transaction; 404 when one is missing, nothing written; already linked ones stay)',
  body: linkRefsBody, response: z.literal(true), example: { request: [{ Id: 1 }], response: true },
});

export const linkDeleteV2 = defineEndpoint({
  ...common, auth: write, id: 'linkDeleteV2', method: 'DELETE', path: LINKS,
  summary: 'Unlink records (one transaction; records not linked are left alone)',
  body: linkRefsBody, response: z.literal(true), example: { request: [{ Id: 1 }], response: true },
});
