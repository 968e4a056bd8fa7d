import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { ACCOUNT, USERS, type ScopeRule } from '../endpoint/access';
import { onBase, onTable } from './scopes';

/**
 * NocoDB's v3 meta paths that clients read (n8n's NocoDB node 4: its base,
 * table, view and field pickers and its column mapper), with NocoDB
 * 0.301.3's shapes, over the v1 use cases and their permissions: listing
 * bases needs no permission (each caller sees its own bases), reading a
 * base, its tables and their fields needs base.read. A base, table or field
 * that does not exist, is hidden, or is not in the base the path names
 * answers 422 with its code, as NocoDB's v3 does.
 *
 * Workspaces: NocoDB's open edition has one workspace, whose id each install
 * makes up (`w` and 7 characters, kept in its store) and which its v3 paths
 * do not check: `/workspaces/{any id}/bases` lists the caller's bases.
 * Tabula's one workspace is `nc`, the id n8n sends when none is picked (and
 * NocoDB's web app's path for it).
 */
export const V3_META = '/api/v3/meta';
/** The id of Tabula's one workspace, as v3 bases and tables name it. */
export const V3_WORKSPACE_ID = 'nc';

const common = { service: 'meta', tags: ['Meta (v3)'], errors: [403, 422] } as const;

const baseV3 = z.looseObject({
  id: z.string(), title: z.string(), meta: z.unknown(), workspace_id: z.string(), created_at: z.unknown(), updated_at: z.unknown(),
});
const tableSummaryV3 = z.looseObject({ id: z.string(), title: z.string(), base_id: z.string(), workspace_id: z.string() });
/** A field: id, table, title, type (NocoDB's `uidt`), and `options` of links and selects. */
export const fieldV3 = z.looseObject({ id: z.string(), table_id: z.string(), title: z.string(), type: z.string(), options: z.unknown().optional() });
const tableV3 = tableSummaryV3.extend({
  source_id: z.string(),
  display_field_id: z.string().optional(),
  views: z.array(z.looseObject({ id: z.string(), title: z.string(), view_type: z.string() })),
  fields: z.array(fieldV3),
});

const baseIdParams = z.object({ baseId: nameRef });
const tableIdParams = baseIdParams.extend({ tableId: nameRef });
const fieldIdParams = baseIdParams.extend({ fieldId: nameRef });
const fieldInTableParams = tableIdParams.extend({ fieldId: nameRef });
/** The field `{fieldId}` (in its table). */
const onField: ScopeRule<{ params: { fieldId: string } }> = { via: 'column', id: (i) => i.params.fieldId };

const baseExample = { id: 'p1', title: 'Sales', meta: {}, workspace_id: V3_WORKSPACE_ID, created_at: '2025-01-01 00:00:00+00:00', updated_at: '2025-01-01 00:00:00+00:00' };

export const baseListV3 = defineEndpoint({
  ...common, id: 'baseListV3', method: 'GET', path: `${V3_META}/workspaces/{workspaceId}/bases`,
  summary: "List the caller's bases (v3; any workspace id names the one workspace)",
  auth: { callers: USERS }, params: z.object({ workspaceId: z.string().min(1).max(128) }),
  response: z.object({ list: z.array(baseV3) }), example: { response: { list: [baseExample] } },
});
export const baseGetV3 = defineEndpoint({
  ...common, id: 'baseGetV3', method: 'GET', path: `${V3_META}/bases/{baseId}`, summary: 'Read a base (v3)',
  auth: { callers: USERS, permission: 'base.read', scope: onBase }, params: baseIdParams, response: baseV3, example: { response: baseExample },
});
export const tableListV3 = defineEndpoint({
  ...common, id: 'tableListV3', method: 'GET', path: `${V3_META}/bases/{baseId}/tables`, summary: 'List the tables of a base (v3; junction tables left out)',
  auth: { callers: USERS, permission: 'base.read', scope: onBase }, params: baseIdParams, response: z.object({ list: z.array(tableSummaryV3) }),
});
export const tableGetV3 = defineEndpoint({
  ...common, id: 'tableGetV3', method: 'GET', path: `${V3_META}/bases/{baseId}/tables/{tableId}`,
  summary: 'Read a table with its fields and views (v3; system fields left out)',
  auth: { callers: USERS, permission: 'base.read', scope: onTable }, params: tableIdParams, response: tableV3,
});
export const fieldGetV3 = defineEndpoint({
  ...common, id: 'fieldGetV3', method: 'GET', path: `${V3_META}/bases/{baseId}/fields/{fieldId}`, summary: 'Read a field (v3)',
  auth: { callers: USERS, permission: 'base.read', scope: onField }, params: fieldIdParams, response: fieldV3,
});
export const fieldGetInTableV3 = defineEndpoint({
  ...common, id: 'fieldGetInTableV3', method: 'GET', path: `${V3_META}/bases/{baseId}/tables/{tableId}/fields/{fieldId}`,
  summary: "Read a field of a table (v3; the path n8n's link picker calls)",
  auth: { callers: USERS, permission: 'base.read', scope: onField }, params: fieldInTableParams, response: fieldV3,
});

/* ---- writes: bases, tables and fields as NocoDB 0.301.3 serves them ---- */

/** NocoDB's v3 field types (its `FieldBase.type`: v1's uidt names). */
export const V3_FIELD_TYPES = [
  'SingleLineText', 'LongText', 'PhoneNumber', 'URL', 'Email', 'Number', 'Decimal', 'Currency', 'Percent', 'Duration', 'Date', 'DateTime',
  'Time', 'SingleSelect', 'MultiSelect', 'Rating', 'Checkbox', 'Attachment', 'Geometry', 'Links', 'Lookup', 'Rollup', 'Button', 'Formula',
  'Barcode', 'Year', 'QrCode', 'CreatedTime', 'LastModifiedTime', 'CreatedBy', 'LastModifiedBy', 'LinkToAnotherRecord', 'User', 'JSON',
] as const;

const title = z.string().trim().min(1, 'title is required').max(255);
const metaObject = z.record(z.string(), z.unknown());

/** A base to create: `{ title, meta? }`. */
export const baseCreateV3Body = z.looseObject({ title, meta: metaObject.nullish() });
/** A base change: `title` and/or `meta`. */
export const baseUpdateV3Body = z.looseObject({ title: title.optional(), meta: metaObject.nullish() });

/**
 * A field as v3 writes it: `{ title, type, description?, default_value?, unique?, options? }`.
 * `options` by type: selects `{ choices: [{ title, color? }] }`; links `{ relation_type, related_table_id }`;
 * lookups `{ related_field_id, related_table_lookup_field_id }`; rollups `{ related_field_id,
 * related_table_rollup_field_id, rollup_function }`; formulas `{ formula }`; the others their display settings.
 */
export const fieldV3Body = z.looseObject({
  title,
  type: z.enum(V3_FIELD_TYPES),
  description: z.string().max(8192, 'description must be at most 8192 characters').nullish(),
  default_value: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  unique: z.boolean().optional(),
  options: z.looseObject({}).optional(),
});
/** A field change: `title` (required, as NocoDB's), the rest optional (`type` changes the field's type). */
export const fieldUpdateV3Body = fieldV3Body.extend({ type: z.enum(V3_FIELD_TYPES).optional() });

/** A table to create: `{ title, description?, meta?, source_id?, fields? }` (the key `Id` is always made). */
export const tableCreateV3Body = z.looseObject({
  title,
  description: z.string().max(8192).nullish(),
  meta: metaObject.nullish(),
  source_id: z.string().max(128).optional(),
  fields: z.array(fieldV3Body).default([]),
});
/** A table change: one or more of `title`, `description`, `display_field_id` (a field of this table), `meta`. */
export const tableUpdateV3Body = z.looseObject({
  title: title.optional(),
  description: z.string().max(8192).nullish(),
  display_field_id: z.string().max(128).optional(),
  meta: metaObject.nullish(),
}).refine((b) => b.title !== undefined || b.description !== undefined || b.display_field_id !== undefined || b.meta !== undefined, {
  message: 'one of title, description, display_field_id or meta is required',
});

/** What NocoDB's v3 deletes answer: `{}`. */
const deleted = z.object({}).meta({ example: {} });
const writeErrors = [400, 403, 422] as const;
const fieldExample = { id: 'c1', table_id: 'm1', title: 'Note', type: 'LongText', system: false };

export const baseCreateV3 = defineEndpoint({
  ...common, id: 'baseCreateV3', method: 'POST', path: `${V3_META}/workspaces/{workspaceId}/bases`,
  summary: 'Create a base (v3; org-level creators; any workspace id names the one workspace)',
  auth: { callers: ACCOUNT, permission: 'base.create' }, params: z.object({ workspaceId: z.string().min(1).max(128) }),
  body: baseCreateV3Body, response: baseV3, errors: [400, 403], example: { request: { title: 'Sales', meta: { icon_color: '#36BFFF' } }, response: baseExample },
});
export const baseUpdateV3 = defineEndpoint({
  ...common, id: 'baseUpdateV3', method: 'PATCH', path: `${V3_META}/bases/{baseId}`, summary: 'Update a base (v3: title, meta); answers the base',
  auth: { callers: USERS, permission: 'base.update', scope: onBase }, params: baseIdParams, body: baseUpdateV3Body, response: baseV3, errors: writeErrors,
  example: { request: { title: 'Sales 2025' }, response: { ...baseExample, title: 'Sales 2025' } },
});
export const baseDeleteV3 = defineEndpoint({
  ...common, id: 'baseDeleteV3', method: 'DELETE', path: `${V3_META}/bases/{baseId}`, summary: 'Delete a base (v3; answers `{}`)',
  auth: { callers: USERS, permission: 'base.delete', scope: onBase }, params: baseIdParams, response: deleted, example: { response: {} },
});
export const tableCreateV3 = defineEndpoint({
  ...common, id: 'tableCreateV3', method: 'POST', path: `${V3_META}/bases/{baseId}/tables`, summary: 'Create a table with its fields (v3); answers the table',
  auth: { callers: USERS, permission: 'schema.write', scope: onBase }, params: baseIdParams, body: tableCreateV3Body, response: tableV3, errors: writeErrors,
  example: { request: { title: 'Items', fields: [{ title: 'Title', type: 'SingleLineText' }, { title: 'Qty', type: 'Number' }] } },
});
export const tableUpdateV3 = defineEndpoint({
  ...common, id: 'tableUpdateV3', method: 'PATCH', path: `${V3_META}/bases/{baseId}/tables/{tableId}`,
  summary: 'Update a table (v3: title, description, display_field_id, meta); answers the table',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable }, params: tableIdParams, body: tableUpdateV3Body, response: tableV3, errors: writeErrors,
  example: { request: { title: 'Items 2025' } },
});
export const tableDeleteV3 = defineEndpoint({
  ...common, id: 'tableDeleteV3', method: 'DELETE', path: `${V3_META}/bases/{baseId}/tables/{tableId}`, summary: 'Delete a table (v3; answers `{}`)',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable }, params: tableIdParams, response: deleted, errors: writeErrors, example: { response: {} },
});
export const fieldCreateV3 = defineEndpoint({
  ...common, id: 'fieldCreateV3', method: 'POST', path: `${V3_META}/bases/{baseId}/tables/{tableId}/fields`, summary: 'Add a field to a table (v3); answers the field',
  auth: { callers: USERS, permission: 'schema.write', scope: onTable }, params: tableIdParams, body: fieldV3Body, response: fieldV3, errors: writeErrors,
  example: { request: { title: 'Note', type: 'LongText' }, response: fieldExample },
});
export const fieldUpdateV3 = defineEndpoint({
  ...common, id: 'fieldUpdateV3', method: 'PATCH', path: `${V3_META}/bases/{baseId}/fields/{fieldId}`, summary: 'Update a field (v3); answers the field',
  auth: { callers: USERS, permission: 'schema.write', scope: onField }, params: fieldIdParams, body: fieldUpdateV3Body, response: fieldV3, errors: writeErrors,
  example: { request: { title: 'Note' }, response: fieldExample },
});
export const fieldUpdateInTableV3 = defineEndpoint({
  ...common, id: 'fieldUpdateInTableV3', method: 'PATCH', path: `${V3_META}/bases/{baseId}/tables/{tableId}/fields/{fieldId}`,
  summary: 'Update a field of a table (v3; the same as …/fields/{fieldId})',
  auth: { callers: USERS, permission: 'schema.write', scope: onField }, params: fieldInTableParams, body: fieldUpdateV3Body, response: fieldV3, errors: writeErrors,
  example: { request: { title: 'Note' }, response: fieldExample },
});
export const fieldDeleteV3 = defineEndpoint({
  ...common, id: 'fieldDeleteV3', method: 'DELETE', path: `${V3_META}/bases/{baseId}/fields/{fieldId}`, summary: 'Delete a field (v3; answers `{}`)',
  auth: { callers: USERS, permission: 'schema.write', scope: onField }, params: fieldIdParams, response: deleted, errors: writeErrors, example: { response: {} },
});
export const fieldDeleteInTableV3 = defineEndpoint({
  ...common, id: 'fieldDeleteInTableV3', method: 'DELETE', path: `${V3_META}/bases/{baseId}/tables/{tableId}/fields/{fieldId}`,
  summary: 'Delete a field of a table (v3; the same as …/fields/{fieldId})',
  auth: { callers: USERS, permission: 'schema.write', scope: onField }, params: fieldInTableParams, response: deleted, errors: writeErrors, example: { response: {} },
});
