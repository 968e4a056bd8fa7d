import type { z } from 'zod';
import type { HooksPorts } from '../ports';
import { newId } from '@tabula/db';
import { newHookSecret } from './hook-signature';
import { pageInfo, resolvePaging, type PagingInput } from '@tabula/contracts';
import { deleteHook as deleteRow, findHook, insertHook, listHooks as listRows, updateHook as updateRow, type HookRow } from '../repositories/hook.repository';
import { presentHook } from '../presenters/hook.presenter';
import { checkEvent, checkNotification, normaliseOperation, type HookBody, type hookPatchSchema } from './hook-input';
import { announceHookChange } from '../cache/hook-changes';
import { canEditHooks, type HookInScope, type TableInScope } from './hook-access';
import { publishHookChanged } from '../events/hook-changed.producer';

/** Paging query of lists. */
export type ListQuery = PagingInput;

/** A table's hooks, paged; secrets masked for roles that may not edit hooks. */
export async function listHooks(ports: HooksPorts, scope: TableInScope, query: ListQuery) {
  const canEdit = canEditHooks(scope);
  const paging = resolvePaging(query, { limit: 1000, max: 1000 });
  const { rows, total } = await listRows(ports.db, scope.value.table.id, paging.limit, paging.offset);
  return { list: rows.map((row) => presentHook(row, canEdit)), pageInfo: pageInfo(total, paging.limit, paging.offset) };
}

/** Creates a hook; the answer carries its signing secret, shown this once. */
export async function createHook(ports: HooksPorts, scope: TableInScope, body: HookBody) {
  const table = scope.value;
  checkEvent(body.event);
  const operation = normaliseOperation(body.version, body.operation);
  await checkNotification(body.notification, ports.config.SVC_ALLOW_LOCAL_HOOKS);
  const secret = newHookSecret();
  const id = newId('hk');
  await insertHook(ports.db, {
    id, fk_model_id: table.table.id, base_id: table.base.id, title: body.title, description: body.description ?? null,
    event: body.event, operation, notification: body.notification as HookRow['notification'], active: body.active, async: body.async,
    retries: body.retries, retry_interval: body.retry_interval, timeout: body.timeout, version: body.version,
    condition: body.condition, trigger_field: body.trigger_field, trigger_fields: body.trigger_fields, secret_sealed: ports.box.seal(secret),
  });
  await announceHookChange(ports.db, ports.hookCache, [table.table.id]);
  await publishHookChanged(ports, 'created', { baseId: table.base.id, tableId: table.table.id, hookId: id });
  return { ...presentHook((await findHook(ports.db, id))!), secret };
}

/** Updates a hook; `rotate_secret: true` issues a new secret (returned this once). */
export async function updateHook(ports: HooksPorts, scope: HookInScope, body: z.infer<typeof hookPatchSchema>) {
  const hook = scope.value;
  const hookId = hook.id;
  checkEvent(body.event);
  const { rotate_secret: rotate, operation, ...rest } = body;
  const version = body.version ?? hook.version;
  const values: Partial<HookRow> = {};
  for (const key of ['title', 'description', 'event', 'active', 'async', 'retries', 'retry_interval', 'timeout', 'version', 'condition', 'trigger_field', 'trigger_fields'] as const) {
    if (rest[key] !== undefined) (values as Record<string, unknown>)[key] = rest[key];
  }
  if (operation !== undefined || body.version !== undefined) values.operation = normaliseOperation(version, operation ?? hook.operation);
  if (rest.notification) {
    await checkNotification(rest.notification, ports.config.SVC_ALLOW_LOCAL_HOOKS);
    values.notification = rest.notification as HookRow['notification'];
  }
  const secret = rotate ? newHookSecret() : undefined;
  if (secret) values.secret_sealed = ports.box.seal(secret);
  await updateRow(ports.db, hookId, values);
  await announceHookChange(ports.db, ports.hookCache, [hook.fk_model_id]);
  await publishHookChanged(ports, 'updated', { baseId: hook.base_id, tableId: hook.fk_model_id, hookId });
  const presented = presentHook((await findHook(ports.db, hookId))!);
  return secret ? { ...presented, secret } : presented;
}

/** Deletes a hook with its filters, pending deliveries and logs. */
export async function deleteHook(ports: HooksPorts, scope: HookInScope): Promise<boolean> {
  const hook = scope.value;
  const hookId = hook.id;
  const deleted = (await deleteRow(ports.db, hookId)) > 0;
  await announceHookChange(ports.db, ports.hookCache, [hook.fk_model_id]);
  if (deleted) await publishHookChanged(ports, 'deleted', { baseId: hook.base_id, tableId: hook.fk_model_id, hookId });
  return deleted;
}
