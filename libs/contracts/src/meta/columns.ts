import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { columnParams, META, tableParams } from './paging';
import { columnSchema } from './resources';
import { USERS } from '../endpoint/access';
import { onColumn, onTable } from './scopes';

const boolish = z.union([z.boolean(), z.number(), z.string()]).transform((v) => v === true || v === 1 || v === '1' || v === 'true');

/** A select option as the client sends it. */
export const selectOptionSchema = z.looseObject({
  id: z.string().optional(),
  title: z.string({ error: 'select option title is required' }).trim().min(1, 'select option title is required'),
  color: z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'select option color must be a hex color').optional(),
  order: z.number().optional(),
});

const jsonObject = z.union([z.record(z.string(), z.unknown()), z.string()]).nullable().transform((v, ctx) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'meta must be an object or JSON text' });
    return z.NEVER;
  }
});

/** Column fields a client may send (spec "Column"); the rest passes through unused. */
export const columnFieldsSchema = z.looseObject({
  /** Display title, 1–255 characters. */
  title: z.string().trim().min(1, 'title is required').max(255, 'title must be at most 255 characters'),
  column_name: z.string().max(255).optional(),
  uidt: z.string().min(1, 'uidt is required'),
  dt: z.string().max(64).nullish(),
  dtxp: z.union([z.string(), z.number()]).nullish(),
  dtxs: z.union([z.string(), z.number()]).nullish(),
  rqd: boolish.optional(), pk: boolish.optional(), pv: boolish.optional(), unique: boolish.optional(),
  ai: boolish.optional(), au: boolish.optional(),
  cdf: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  meta: jsonObject.optional(),
  /** At most 8192 characters (spec Limits). */
  description: z.string().max(8192, 'description must be at most 8192 characters').nullish(),
  colOptions: z.looseObject({ options: z.array(selectOptionSchema).optional() }).nullish(),
});

/** Column create body. */
export type ColumnFields = z.infer<typeof columnFieldsSchema>;

/** Column update body: every field optional. */
export const columnPatchSchema = columnFieldsSchema.partial();
export type ColumnPatch = z.infer<typeof columnPatchSchema>;

/** Body of the bulk column change (`hash` guards against concurrent edits). */
export const bulkColumnsSchema = z.object({
  hash: z.string().min(1, 'hash is required'),
  ops: z.array(z.object({
    op: z.enum(['add', 'update', 'delete']),
    column: z.looseObject({ id: z.string().optional() }),
  })).min(1, 'ops is required'),
});

const common = { service: 'meta', tags: ['Columns'], errors: [403, 404] } as const;
const success = z.object({ success: z.boolean() });

export const columnCreate = defineEndpoint({
  ...common, id: 'columnCreate', method: 'POST', path: `${META}/tables/{tableId}/columns`, summary: 'Add a column',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, body: columnFieldsSchema, response: columnSchema, errors: [403, 404, 409],
  example: { request: { title: 'Status', uidt: 'SingleSelect', colOptions: { options: [{ title: 'open' }, { title: 'done' }] } } },
});
export const columnsHash = defineEndpoint({
  ...common, id: 'columnsHash', method: 'GET', path: `${META}/tables/{tableId}/columns/hash`, summary: 'Hash of the columns (for bulk)',
  auth: { callers: USERS, permission: 'base.read', scope: onTable },
  params: tableParams, response: z.object({ hash: z.string() }),
});
export const columnsBulk = defineEndpoint({
  ...common, id: 'columnsBulk', method: 'POST', path: `${META}/tables/{tableId}/columns/bulk`, summary: 'Add, change and drop columns at once',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable },
  params: tableParams, body: bulkColumnsSchema, errors: [403, 404, 409],
  response: z.object({ failedOps: z.array(z.unknown()), columns: z.array(columnSchema), hash: z.string() }),
});
export const columnGet = defineEndpoint({
  ...common, id: 'columnGet', method: 'GET', path: `${META}/columns/{columnId}`, summary: 'Read a column',
  auth: { callers: USERS, permission: 'base.read', scope: onColumn },
  params: columnParams, response: columnSchema,
});
export const columnUpdate = defineEndpoint({
  ...common, id: 'columnUpdate', method: 'PATCH', path: `${META}/columns/{columnId}`, summary: 'Change a column (type changes convert values)',
  auth: { callers: USERS, permission: 'schema.write', scope: onColumn },
  params: columnParams, body: columnPatchSchema, response: columnSchema, errors: [403, 404, 409],
  example: { request: { title: 'State' } },
});
export const columnDelete = defineEndpoint({
  ...common, id: 'columnDelete', method: 'DELETE', path: `${META}/columns/{columnId}`, summary: 'Drop a column',
  auth: { callers: USERS, permission: 'schema.write', scope: onColumn },
  params: columnParams, response: success, example: { response: { success: true } },
});
export const columnSetPrimary = defineEndpoint({
  ...common, id: 'columnSetPrimary', method: 'POST', path: `${META}/columns/{columnId}/primary`, summary: 'Make a column the display value',
  auth: { callers: USERS, permission: 'schema.write', scope: onColumn },
  params: columnParams, response: success, example: { response: { success: true } },
});
