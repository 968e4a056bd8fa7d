import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import { USERS, type ScopeRule } from '../endpoint/access';
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
