import { lookup } from 'node:dns/promises';
import { V2_OPERATIONS, V3_OPERATIONS, type notificationSchema } from '@tabula/contracts';
import { errors, urlRefusal, refusalOf } from '@tabula/http';
import { z } from 'zod';
import { checkTemplate, stringLeaves } from './template';

/** The request schemas live in the hooks contracts (libs/contracts/src/hooks/hook-body.ts). */
export { hookBodySchema, hookPatchSchema, notificationSchema, type HookBody } from '@tabula/contracts';

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
  const blocked = addresses.map((a) => refusalOf(a.address, allowLocal, host)).find((r) => r !== null);
  if (blocked) throw errors.badRequest(blocked);
}

/** Checks a notification: templates parse and the target is allowed. */
export async function checkNotification(notification: Notification, allowLocal: boolean): Promise<void> {
  checkTemplates(notification);
  await checkTarget(notification.payload.path, allowLocal);
}
