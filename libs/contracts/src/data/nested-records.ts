import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { pagingQuery } from '../common/paging';
import { USERS } from '../endpoint/access';
import { tableRefScope } from './table-scope';

const NESTED = '/api/v1/db/data/{orgs}/{baseName}/{tableName}/{rowId}/{relationType}/{columnName}';

/** Path of a nested route: the table, the row, the relation type and the link column (title or id). */
const nestedParams = z.object({
  orgs: z.string(),
  baseName: z.string(),
  tableName: z.string(),
  rowId: z.string(),
  /** NocoDB's relation segment; the link column's own type decides what happens. */
  relationType: z.enum(['mm', 'hm', 'bt', 'oo'], { error: 'relationType must be mm, hm, bt or oo' }),
  columnName: z.string(),
});

/** Nested list query: the related table's where/sort/fields and the page window (invalid limits mean the default). */
const nestedQuery = z.object({
  where: z.string().optional(),
  sort: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)).optional(),
  fields: z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join(',') : v)).optional(),
  limit: pagingQuery.shape.limit,
  offset: pagingQuery.shape.offset,
  page: pagingQuery.shape.page,
  pageSize: pagingQuery.shape.pageSize,
});

const recordPage = z.object({
  list: z.array(z.record(z.string(), z.unknown())),
  pageInfo: z.object({ totalRows: z.number(), page: z.number(), pageSize: z.number(), isFirstPage: z.boolean(), isLastPage: z.boolean() }),
});
const message = z.object({ msg: z.string() });
/** Listing links needs data.read in the table's base; linking and unlinking data.write. */
const read = { callers: USERS, permission: 'data.read', scope: tableRefScope } as const;
const write = { callers: USERS, permission: 'data.write', scope: tableRefScope } as const;

/** GET .../{rowId}/{relationType}/{columnName}: the records linked to the row. */
export const nestedList = defineEndpoint({
  id: 'dataNestedList', method: 'GET', path: NESTED, service: 'data', auth: read, tags: ['Records'],
  summary: 'Records linked to a record through a link column (paged, where/sort/fields)',
  params: nestedParams, query: nestedQuery, response: recordPage, errors: [404],
});

/** GET .../exclude: the related records not linked to the row (link candidates). */
export const nestedExcludedList = defineEndpoint({
  id: 'dataNestedExcludedList', method: 'GET', path: `${NESTED}/exclude`, service: 'data', auth: read, tags: ['Records'],
  summary: 'Related records not yet linked to a record', params: nestedParams, query: nestedQuery, response: recordPage, errors: [404],
});

const refParams = nestedParams.extend({ refRowId: z.string() });

/** POST .../{refRowId}: links two records (404 when either does not exist; nothing written). */
export const nestedAdd = defineEndpoint({
  id: 'dataNestedAdd', method: 'POST', path: `${NESTED}/{refRowId}`, service: 'data', auth: write, tags: ['Records'],
  summary: 'Link a record', params: refParams, response: message, errors: [404],
});

/** DELETE .../{refRowId}: unlinks two records (400 ERR_NOT_LINKED when they are not linked). */
export const nestedRemove = defineEndpoint({
  id: 'dataNestedRemove', method: 'DELETE', path: `${NESTED}/{refRowId}`, service: 'data', auth: write, tags: ['Records'],
  summary: 'Unlink a record', params: refParams, response: message, errors: [404],
});
