import { z } from 'zod';
import { timestamp } from '../common/refs';
import type { FilterInfo } from '../internal/meta-internal';

const meta = z.record(z.string(), z.unknown()).nullish();

/** A data source as the public API shows it (never its config). */
export const sourceSchema = z.object({
  id: z.string(), base_id: z.string(), alias: z.string().nullish(), type: z.string(), is_meta: z.boolean(), is_local: z.boolean(),
  enabled: z.boolean(), order: z.number(), meta, created_at: timestamp.optional(), updated_at: timestamp.optional(),
});

/** The spec's Base. */
export const baseSchema = z.object({
  id: z.string(), title: z.string(), description: z.string().nullish(), color: z.string().nullish(), meta,
  order: z.number().nullable(), status: z.string().nullable(), deleted: z.boolean(),
  created_at: timestamp.optional(), updated_at: timestamp.optional(), sources: z.array(sourceSchema),
  get tables() { return z.array(tableSummarySchema).optional(); },
});

/** A select option of a SingleSelect/MultiSelect column. */
export const selectOptionOutSchema = z.object({ id: z.string().optional(), title: z.string(), color: z.string().optional(), order: z.number().optional() });

/** The spec's Column. */
export const columnSchema = z.object({
  id: z.string(), base_id: z.string(), fk_model_id: z.string(), title: z.string(), column_name: z.string(),
  uidt: z.string().describe('UI data type, e.g. SingleLineText'), dt: z.string().nullish(),
  dtxp: z.union([z.string(), z.number()]).nullish(), dtxs: z.union([z.string(), z.number()]).nullish(),
  pk: z.boolean(), pv: z.boolean(), rqd: z.boolean(), unique: z.boolean(), ai: z.boolean(), au: z.boolean(),
  cdf: z.union([z.string(), z.number(), z.boolean()]).nullish(), system: z.boolean(), meta, order: z.number(),
  description: z.string().nullish(), colOptions: z.object({ options: z.array(selectOptionOutSchema).optional() }).optional(),
  created_at: timestamp.optional(), updated_at: timestamp.optional(),
});

/** The spec's Sort. */
export const sortSchema = z.object({
  id: z.string(), fk_view_id: z.string().optional(), fk_model_id: z.string().optional(), fk_column_id: z.string(),
  direction: z.string(), order: z.number(),
});

/** A stored filter (groups carry `children`). */
export const filterSchema: z.ZodType<FilterInfo> = z.object({
  id: z.string(), fk_view_id: z.string().nullish(), fk_column_id: z.string().nullish(), fk_parent_id: z.string().nullish(),
  comparison_op: z.string().nullish(), comparison_sub_op: z.string().nullish(), value: z.unknown().optional(),
  logical_op: z.enum(['and', 'or', 'not']).nullish(), is_group: z.boolean().optional(),
  get children() { return z.array(filterSchema).optional(); },
});

/** A view with its columns, sorts and filters. */
export const viewSchema = z.looseObject({
  id: z.string(), title: z.string(), type: z.number().describe("NocoDB's view type: form 1, gallery 2, grid 3, kanban 4, map 5, calendar 6"), fk_model_id: z.string(), base_id: z.string().optional(),
  is_default: z.boolean(), order: z.number().optional(), meta,
  columns: z.array(z.object({ id: z.string().optional(), fk_column_id: z.string(), show: z.boolean(), order: z.number(), width: z.string().nullish() })),
  sorts: z.array(sortSchema), filters: z.array(filterSchema),
});

/** A table as listed (no columns). */
export const tableSummarySchema = z.object({
  id: z.string(), base_id: z.string(), source_id: z.string(), table_name: z.string(), title: z.string(),
  type: z.string(), meta, description: z.string().nullish(), order: z.number(), enabled: z.boolean(),
  created_at: timestamp.optional(), updated_at: timestamp.optional(),
});

/** A table with its columns and views. */
export const tableSchema = tableSummarySchema.extend({
  columns: z.array(columnSchema), columnsById: z.record(z.string(), columnSchema), views: z.array(viewSchema),
});

/** `{ id, name }` of a copy. */
export const copySchema = z.object({ id: z.string(), name: z.string() });
