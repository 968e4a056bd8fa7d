import { z } from 'zod';

/** Operations of v1/v2 hooks. */
export const V2_OPERATIONS = ['insert', 'update', 'delete', 'bulkInsert', 'bulkUpdate', 'bulkDelete', 'trigger'] as const;
/** Operations of v3 hooks. */
export const V3_OPERATIONS = ['insert', 'update', 'delete', 'trigger'] as const;
const MAX_TIMEOUT_MS = 10 * 60 * 1000;

const jsonish = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, schema);

const nameValue = z.object({ name: z.string().max(1024).optional(), value: z.string().max(8192).optional(), enabled: z.boolean().optional() }).passthrough();

/** The URL notification (compat-notes "Hooks"). */
export const notificationSchema = jsonish(z.object({
  type: z.literal('URL').default('URL'),
  payload: z.object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'post', 'put', 'patch', 'delete', 'head', 'options']).default('POST'),
    path: z.string().min(1).max(4096),
    body: z.unknown().optional(),
    headers: z.array(nameValue).max(100).optional(),
    parameters: z.array(nameValue).max(100).optional(),
  }).passthrough(),
}).passthrough());

/** Create/update body of a hook; `operation` is checked against `version` by {@link checkHook}. */
export const hookBodySchema = z.object({
  title: z.string().trim().min(1).max(255),
  description: z.string().max(10000).nullish(),
  event: z.enum(['after', 'before', 'manual', 'view', 'field']),
  operation: z.union([z.string(), z.array(z.string())]),
  notification: notificationSchema,
  active: z.boolean().default(true),
  async: z.boolean().default(true),
  retries: z.number().int().min(0).max(100).default(10),
  retry_interval: z.number().int().min(0).max(24 * 3600 * 1000).default(60000),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(60000),
  version: z.enum(['v1', 'v2', 'v3']).default('v2'),
  condition: z.boolean().default(false),
  trigger_field: z.boolean().default(false),
  trigger_fields: z.array(z.string().max(255)).max(500).default([]),
}).passthrough();

/** The parsed hook body. */
export type HookBody = z.infer<typeof hookBodySchema>;

/** PATCH body: every field optional, plus `rotate_secret`. */
export const hookPatchSchema = z.object({
  title: z.string().trim().min(1).max(255).optional(),
  description: z.string().max(10000).nullish(),
  event: z.enum(['after', 'before', 'manual', 'view', 'field']).optional(),
  operation: z.union([z.string(), z.array(z.string())]).optional(),
  notification: notificationSchema.optional(),
  active: z.boolean().optional(),
  async: z.boolean().optional(),
  retries: z.number().int().min(0).max(100).optional(),
  retry_interval: z.number().int().min(0).max(24 * 3600 * 1000).optional(),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  version: z.enum(['v1', 'v2', 'v3']).optional(),
  condition: z.boolean().optional(),
  trigger_field: z.boolean().optional(),
  trigger_fields: z.array(z.string().max(255)).max(500).optional(),
  rotate_secret: z.boolean().optional(),
}).passthrough();

/** Body of `hooks/test`: the hook configuration (saved or not) and a sample payload. */
export const testHookBodySchema = z.object({
  hook: hookBodySchema.extend({ id: z.string().max(20).optional() }),
  payload: z.unknown().optional(),
}).passthrough();

/** Body of a hook filter (the stored-filter shape, groups may nest children). */
export const hookFilterBodySchema = z.object({
  fk_column_id: z.string().max(20).nullish(),
  comparison_op: z.string().max(32).nullish(),
  comparison_sub_op: z.string().max(32).nullish(),
  value: z.unknown().optional(),
  fk_parent_id: z.string().max(20).nullish(),
  is_group: z.boolean().optional(),
  logical_op: z.enum(['and', 'or', 'not']).nullish(),
  /** Nested filters of a group: each is validated as a filter once the tree's depth and size are known to be within limits (no recursion here: a 3000-deep tree must not overflow the stack). */
  children: z.array(z.unknown()).max(100).optional(),
}).passthrough();

/** Params of the sample-payload endpoint. */
export const sampleParamsSchema = z.object({
  tableId: z.string().max(64),
  event: z.enum(['after', 'before', 'manual', 'view', 'field']),
  operation: z.enum(['insert', 'update', 'delete', 'bulkInsert', 'bulkUpdate', 'bulkDelete', 'trigger']),
  version: z.enum(['v1', 'v2', 'v3']),
});
