import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { USERS } from '../endpoint/access';
import { onView } from './scopes';
import { V3_META } from './meta-v3';

/**
 * NocoDB 0.301.3's v3 paths of a view's sorts, filters and columns, over the
 * v1 use cases and their permissions (reading needs base.read, changing
 * schema.write, as v1's). Sorts and filters live under the base
 * (`/api/v3/meta/bases/{baseId}/views/{viewId}/…`, also spelled
 * `…/bases/{baseId}/tables/{tableId}/views/{viewId}/…`), view columns at
 * `/api/v3/meta/views/{viewId}/columns`; updates and deletes name the sort or
 * filter by `id` in the body. A view, base or table that does not exist, is
 * hidden, or is not the path's answers 422 with its code, as NocoDB's v3
 * does. NocoDB 0.301.3 serves no v3 path listing a table's views (its table
 * read carries them).
 */
const common = { service: 'meta', tags: ['Meta (v3)'], errors: [403, 404, 422] } as const;
const read = { callers: USERS, permission: 'base.read', scope: onView } as const;
const write = { callers: USERS, permission: 'schema.write', scope: onView } as const;

/** `{baseId}/views/{viewId}`; the `tables/{tableId}` spelling adds the table (which must be the view's). */
const viewParams = z.object({ baseId: nameRef, viewId: nameRef });
const inTableParams = viewParams.extend({ tableId: nameRef });
const VIEW = `${V3_META}/bases/{baseId}/views/{viewId}`;
const VIEW_IN_TABLE = `${V3_META}/bases/{baseId}/tables/{tableId}/views/{viewId}`;
/** The `tables/{tableId}/views/{viewId}` spelling of a contract: the same definition, its own id and path (a different path parameter set). */
function inTable<D extends { id: string; path: string; summary: string; params: typeof viewParams }>(definition: D) {
  return { ...definition, id: definition.id.replace(/V3$/, 'InTableV3'), path: definition.path.replace(VIEW, VIEW_IN_TABLE), summary: `${definition.summary} (in its table)`, params: inTableParams };
}

/* ---- sorts ---- */

const sortV3 = z.object({ id: z.string(), field_id: z.string(), direction: z.enum(['asc', 'desc']) });
const sortExample = { id: 'so1', field_id: 'c1', direction: 'desc' as const };

const sortListV3Def = {
  ...common, auth: read, id: 'sortListV3', method: 'GET', path: `${VIEW}/sorts`, summary: "A view's sorts (v3: `{ list: [{ id, field_id, direction }] }`)",
  params: viewParams, response: z.object({ list: z.array(sortV3) }), example: { response: { list: [sortExample] } },
} as const;
export const sortListV3 = defineEndpoint(sortListV3Def);
export const sortListInTableV3 = defineEndpoint(inTable(sortListV3Def));
const sortCreateV3Def = {
  ...common, auth: write, id: 'sortCreateV3', method: 'POST', path: `${VIEW}/sorts`, status: 200,
  summary: 'Add a sort (v3; one per field: another on the same field is 400)', params: viewParams,
  body: z.object({ field_id: z.string().min(1), direction: z.enum(['asc', 'desc']).default('asc') }),
  response: sortV3, example: { request: { field_id: 'c1', direction: 'desc' }, response: sortExample },
} as const;
export const sortCreateV3 = defineEndpoint(sortCreateV3Def);
export const sortCreateInTableV3 = defineEndpoint(inTable(sortCreateV3Def));
const sortUpdateV3Def = {
  ...common, auth: write, id: 'sortUpdateV3', method: 'PATCH', path: `${VIEW}/sorts`,
  summary: "Change a sort named by `id` (or the view's sort of `field_id`)", params: viewParams,
  body: z.object({ id: z.string().optional(), field_id: z.string().min(1).optional(), direction: z.enum(['asc', 'desc']).optional() }),
  response: sortV3, example: { request: { id: 'so1', direction: 'asc' }, response: { ...sortExample, direction: 'asc' } },
} as const;
export const sortUpdateV3 = defineEndpoint(sortUpdateV3Def);
export const sortUpdateInTableV3 = defineEndpoint(inTable(sortUpdateV3Def));
const sortDeleteV3Def = {
  ...common, auth: write, id: 'sortDeleteV3', method: 'DELETE', path: `${VIEW}/sorts`, summary: 'Delete a sort named by `id`', params: viewParams,
  body: z.object({ id: z.string().min(1) }), response: z.object({}), example: { request: { id: 'so1' }, response: {} },
} as const;
export const sortDeleteV3 = defineEndpoint(sortDeleteV3Def);
export const sortDeleteInTableV3 = defineEndpoint(inTable(sortDeleteV3Def));

/* ---- filters ---- */

/** A filter (`{ id, field_id, operator, sub_operator?, value? }`) or a group (`{ id, group_operator, filters }`). */
const filterNodeV3 = z.looseObject({ id: z.string(), field_id: z.string().optional(), operator: z.string().optional(), group_operator: z.string().optional() });
/** A view's filters as one tree under the root group (`id: "root"`); a view without filters answers `{}`. */
const filterTreeV3 = z.object({ id: z.literal('root'), group_operator: z.string().nullable(), filters: z.array(filterNodeV3) });
const treeExample = { id: 'root' as const, group_operator: 'AND', filters: [{ id: 'fi1', field_id: 'c1', operator: 'eq', value: 'x' }] };
const filterBody = z.unknown().meta({
  description: 'A filter `{ field_id, operator, sub_operator?, value?, parent_id? }` or a group `{ group_operator: "AND"|"OR", filters: [filter or group], parent_id? }` (a group at the root adds its filters to the root group)',
  type: 'object', additionalProperties: true,
});

const filterListV3Def = {
  ...common, auth: read, id: 'filterListV3', method: 'GET', path: `${VIEW}/filters`, summary: "A view's filters (v3: `{ list: <root group> }`)",
  params: viewParams, response: z.object({ list: filterTreeV3.optional() }), example: { response: { list: treeExample } },
} as const;
export const filterListV3 = defineEndpoint(filterListV3Def);
export const filterListInTableV3 = defineEndpoint(inTable(filterListV3Def));
const filterCreateV3Def = {
  ...common, auth: write, id: 'filterCreateV3', method: 'POST', path: `${VIEW}/filters`, status: 200,
  summary: 'Add a filter or a group (v3); answers the whole tree', params: viewParams, body: filterBody, response: filterTreeV3.optional(),
  example: { request: { field_id: 'c1', operator: 'eq', value: 'x' }, response: treeExample },
} as const;
export const filterCreateV3 = defineEndpoint(filterCreateV3Def);
export const filterCreateInTableV3 = defineEndpoint(inTable(filterCreateV3Def));
const filterUpdateV3Def = {
  ...common, auth: write, id: 'filterUpdateV3', method: 'PATCH', path: `${VIEW}/filters`,
  summary: 'Change a filter (or a group\'s operator) named by `id`; answers the whole tree', params: viewParams,
  body: z.looseObject({ id: z.string().min(1) }), response: filterTreeV3.optional(), example: { request: { id: 'fi1', value: 'y' }, response: treeExample },
} as const;
export const filterUpdateV3 = defineEndpoint(filterUpdateV3Def);
export const filterUpdateInTableV3 = defineEndpoint(inTable(filterUpdateV3Def));
const filterDeleteV3Def = {
  ...common, auth: write, id: 'filterDeleteV3', method: 'DELETE', path: `${VIEW}/filters`,
  summary: 'Delete a filter or group named by `id` (`root`: every filter of the view)', params: viewParams,
  body: z.object({ id: z.string().min(1) }), response: z.object({}), example: { request: { id: 'fi1' }, response: {} },
} as const;
export const filterDeleteV3 = defineEndpoint(filterDeleteV3Def);
export const filterDeleteInTableV3 = defineEndpoint(inTable(filterDeleteV3Def));

/* ---- view columns ---- */

const viewOnly = z.object({ viewId: nameRef });
const viewColumnV3 = z.looseObject({ id: z.string(), fk_view_id: z.string(), fk_column_id: z.string(), show: z.boolean() });

export const viewColumnListV3 = defineEndpoint({
  ...common, auth: read, id: 'viewColumnListV3', method: 'GET', path: `${V3_META}/views/{viewId}/columns`,
  summary: "A view's columns by field id (v3: `{ fields: { <field id>: { show, order, width, … } } }`)",
  params: viewOnly, response: z.object({ fields: z.record(z.string(), viewColumnV3) }),
});
export const viewColumnUpdateV3 = defineEndpoint({
  ...common, auth: write, id: 'viewColumnUpdateV3', method: 'PATCH', path: `${V3_META}/views/{viewId}/columns`,
  summary: 'Show, hide, move or resize columns: `[{ id: <field id>, show?, order?, width? }]` or `{ fields: { <field id>: { … } } }`; answers `{}` as NocoDB does',
  params: viewOnly,
  body: z.unknown().meta({ oneOf: [{ type: 'array', items: { type: 'object', additionalProperties: true } }, { type: 'object', properties: { fields: { type: 'object' } } }] }),
  response: z.object({}), example: { request: [{ id: 'c1', show: false }], response: {} },
});
