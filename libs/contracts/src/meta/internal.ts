import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { nameRef } from '../common/refs';
import type { BaseInfo, ColumnInfo, FilterInfo, SourceInfo, TableContext, TableInfo, ViewInfo } from '../internal/meta-internal';
import { SERVICES } from '../endpoint/access';

const baseInfo: z.ZodType<BaseInfo> = z.looseObject({
  id: z.string(), title: z.string(), fk_workspace_id: z.string().nullish(), deleted: z.boolean().optional(),
});
const sourceInfo: z.ZodType<SourceInfo> = z.looseObject({
  id: z.string(), base_id: z.string(), type: z.enum(['pg', 'mysql2', 'sqlite3']), is_meta: z.boolean(), schema: z.string().optional(),
  connection: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});
const columnInfo: z.ZodType<ColumnInfo> = z.looseObject({
  id: z.string(), fk_model_id: z.string(), title: z.string(), column_name: z.string(), uidt: z.string(),
  dt: z.string().nullish(), dtxp: z.union([z.string(), z.number()]).nullish(), dtxs: z.union([z.string(), z.number()]).nullish(),
  pk: z.boolean(), pv: z.boolean(), rqd: z.boolean(), unique: z.boolean(), ai: z.boolean(), au: z.boolean(),
  cdf: z.union([z.string(), z.number(), z.boolean()]).nullish(), system: z.boolean(),
  meta: z.record(z.string(), z.unknown()).nullish(), order: z.number(), description: z.string().nullish(),
  colOptions: z.looseObject({ options: z.array(z.object({ id: z.string().optional(), title: z.string(), color: z.string().optional(), order: z.number().optional() })).optional() }).optional(),
});
const filterInfo: z.ZodType<FilterInfo> = z.looseObject({
  id: z.string(), fk_column_id: z.string().nullish(), comparison_op: z.string().nullish(), comparison_sub_op: z.string().nullish(),
  value: z.unknown().optional(), logical_op: z.enum(['and', 'or', 'not']).nullish(), is_group: z.boolean().optional(),
  fk_parent_id: z.string().nullish(), get children() { return z.array(filterInfo).optional(); },
});
const viewInfo: z.ZodType<ViewInfo> = z.looseObject({
  id: z.string(), title: z.string(), type: z.enum(['grid', 'form', 'gallery', 'kanban', 'calendar', 'map']), fk_model_id: z.string(),
  is_default: z.boolean(), columns: z.array(z.object({ fk_column_id: z.string(), show: z.boolean(), order: z.number() })),
  filters: z.array(filterInfo),
  sorts: z.array(z.looseObject({ id: z.string(), fk_column_id: z.string(), direction: z.enum(['asc', 'desc', 'count-asc', 'count-desc']), order: z.number() })),
});
const tableInfo: z.ZodType<TableInfo> = z.looseObject({
  id: z.string(), base_id: z.string(), source_id: z.string(), table_name: z.string(), title: z.string(), type: z.enum(['table', 'view']),
  columns: z.array(columnInfo), views: z.array(viewInfo),
});

/** Everything a service needs to serve a table. */
// Loose: optional parts (related tables of links) pass through to the caller.
export const tableContextSchema: z.ZodType<TableContext> = z.looseObject({ base: baseInfo, source: sourceInfo, table: tableInfo });

const common = { service: 'meta', auth: { callers: SERVICES }, tags: ['Internal: meta'], errors: [404] } as const;

export const tableContextByRef = defineEndpoint({
  ...common, id: 'internalTableByRef', method: 'GET', path: '/internal/bases/{baseRef}/tables/{tableRef}',
  summary: 'A table by base id/title and table id/title/name', params: z.object({ baseRef: nameRef, tableRef: nameRef }), response: tableContextSchema,
});
export const baseInfoOf = defineEndpoint({
  ...common, id: 'internalBase', method: 'GET', path: '/internal/bases/{baseRef}',
  summary: 'A base by id or title', params: z.object({ baseRef: nameRef }), response: baseInfo,
});
export const tableContext = defineEndpoint({
  ...common, id: 'internalTable', method: 'GET', path: '/internal/tables/{tableId}',
  summary: 'A table by id', params: z.object({ tableId: nameRef }), response: tableContextSchema,
});
export const viewContext = defineEndpoint({
  ...common, id: 'internalView', method: 'GET', path: '/internal/views/{viewId}',
  summary: 'A view and its table', params: z.object({ viewId: nameRef }),
  response: z.intersection(tableContextSchema, z.object({ view: viewInfo })),
});

/** The meta service's internal API; `clientOf(services, metaInternal)`. */
export const metaInternal = { tableContextByRef, baseInfo: baseInfoOf, tableContext, viewContext };
