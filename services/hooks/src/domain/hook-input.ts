import { lookup } from 'node:dns/promises';
import { z } from 'zod';
import { errors, refusalOf, urlRefusal } from '@tabula/http';
import { checkTemplate, stringLeaves } from '../lib/template';

const V2_OPERATIONS = ['insert', 'update', 'delete', 'bulkInsert', 'bulkUpdate', 'bulkDelete', 'trigger'] as const;
const V3_OPERATIONS = ['insert', 'update', 'delete', 'trigger'] as const;
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

/** Hook events nothing emits yet (the spec names them; meta's view and column events are not routed to hooks). */
const UNEMITTED_EVENTS = ['view', 'field'];

/**
 * Refuses (400) a hook on an event that is never emitted, which would be
 * stored and then never fire: `view` and `field` until view and column
 * changes are delivered to hooks.
 */
export function checkEvent(event: string | undefined): void {
  if (event !== undefined && UNEMITTED_EVENTS.includes(event)) {
    throw errors.badRequest(`Hooks on '${event}' events are not supported yet (after, before and manual are)`);
  }
}

/** The operation as stored: an array for v3, one name for v1/v2; 400 for unknown ones. */
export function normaliseOperation(version: string, operation: string | string[]): string | string[] {
  const list = Array.isArray(operation) ? operation : [operation];
  if (version === 'v3') {
    const bad = list.find((op) => !(V3_OPERATIONS as readonly string[]).includes(op));
    if (bad !== undefined || !list.length) throw errors.badRequest(`Invalid operation '${bad ?? ''}' for v3 (insert, update, delete, trigger)`);
    return [...new Set(list)];
  }
  if (list.length !== 1 || !(V2_OPERATIONS as readonly string[]).includes(list[0])) {
    throw errors.badRequest(`Invalid operation '${list.join(',')}' (one of ${V2_OPERATIONS.join(', ')})`);
  }
  return list[0];
}

type Notification = z.infer<typeof notificationSchema>;

function checkTemplates(notification: Notification): void {
  const p = notification.payload;
  const templates = [p.path, ...stringLeaves(p.body), ...(p.headers ?? []).map((h) => h.value ?? ''), ...(p.parameters ?? []).map((h) => h.value ?? '')];
  for (const template of templates) {
    try {
      checkTemplate(template);
    } catch (err) {
      throw errors.badRequest(`Invalid template: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}

/**
 * Refuses a target that is not http(s) or whose host resolves to a refused
 * address (templated hosts are checked when sent, at connect time).
 */
export async function checkTarget(path: string, allowLocal: boolean): Promise<void> {
  if (/^\s*\{\{/.test(path)) return;
  const refused = urlRefusal(path.includes('{{') ? path.replace(/\{\{[^}]*\}\}/g, 'x') : path);
  if (refused) throw errors.badRequest(refused);
  const host = new URL(path.replace(/\{\{[^}]*\}\}/g, 'x')).hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return; // unresolvable now: every connection is checked again anyway
  }
  const blocked = addresses.map((a) => refusalOf(a.address, allowLocal)).find((r) => r !== null);
  if (blocked) throw errors.badRequest(blocked);
}

/** Checks a notification: templates parse and the target is allowed. */
export async function checkNotification(notification: Notification, allowLocal: boolean): Promise<void> {
  checkTemplates(notification);
  await checkTarget(notification.payload.path, allowLocal);
}
