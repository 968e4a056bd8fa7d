import type { SwaggerTable } from './base-swagger.presenter';

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Schema, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const ERRORS = {
  400: json(ref('Error'), 'Bad request'), 401: json(ref('Error'), 'Authentication required'),
  403: json(ref('Error'), 'Forbidden'), 404: json(ref('Error'), 'Not found'),
};
const ROW_ID = { name: 'rowId', in: 'path', required: true, schema: { type: 'string' }, description: 'Primary key value' };
const LIST_QUERY = ['where', 'sort', 'fields', 'limit', 'offset'].map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));

/** The five record operations of one table (`names`: its unique schema/operation name). */
export function tablePaths(baseId: string, table: SwaggerTable, name: string): Record<string, Schema> {
  const base = `/api/v1/db/data/noco/${encodeURIComponent(baseId)}/${encodeURIComponent(table.title)}`;
  const record = ref(`${name}Record`);
  const body = { required: true, content: { 'application/json': { schema: ref(`${name}Request`) } } };
  const tags = [table.title];
  return {
    [base]: {
      get: {
        operationId: `${name}List`, summary: `List ${table.title}`, tags, parameters: LIST_QUERY,
        responses: { 200: json({ type: 'object', properties: { list: { type: 'array', items: record }, pageInfo: ref('PageInfo') }, required: ['list', 'pageInfo'] }), ...ERRORS },
      },
      post: { operationId: `${name}Create`, summary: `Insert a ${table.title} record`, tags, requestBody: body, responses: { 200: json(record), ...ERRORS } },
    },
    [`${base}/count`]: {
      get: { operationId: `${name}Count`, summary: `Count ${table.title}`, tags, parameters: LIST_QUERY.slice(0, 1), responses: { 200: json({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] }), ...ERRORS } },
    },
    [`${base}/{rowId}`]: {
      get: { operationId: `${name}Read`, summary: `Read a ${table.title} record`, tags, parameters: [ROW_ID], responses: { 200: json(record), ...ERRORS } },
      patch: { operationId: `${name}Update`, summary: `Update a ${table.title} record`, tags, parameters: [ROW_ID], requestBody: body, responses: { 200: json(record), ...ERRORS } },
      delete: { operationId: `${name}Delete`, summary: `Delete a ${table.title} record`, tags, parameters: [ROW_ID], responses: { 200: json({ type: 'integer' }), ...ERRORS } },
    },
  };
}
