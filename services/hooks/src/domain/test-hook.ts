import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { appError } from '@tabula/http';
import type { HooksPorts } from '../ports';
import { newHookSecret } from './hook-signature';
import { findHook, type HookRow } from '../repositories/hook.repository';
import { logAttempt } from '../delivery/attempt-log';
import { executeHook } from '../delivery/execute-hook';
import { checkNotification, normaliseOperation } from './hook-input';
import type { TableInScope } from './hook-access';
import { testHookBodySchema } from '@tabula/contracts';

/**
 * Performs a real call with the given configuration and sample (through the
 * same guard, signing and rendering as deliveries). A saved hook of this table
 * gets the call logged as a test call and signs with its own secret.
 */
export async function testHook(ports: HooksPorts, scope: TableInScope, body: z.infer<typeof testHookBodySchema>) {
  const { principal, value: table } = scope;
  const input = body.hook;
  const operation = normaliseOperation(input.version, input.operation);
  await checkNotification(input.notification, ports.config.SVC_ALLOW_LOCAL_HOOKS);
  const saved = input.id ? await findHook(ports.db, input.id) : undefined;
  const stored = saved && saved.fk_model_id === table.table.id ? saved : undefined;
  const hook: HookRow = {
    ...(stored ?? { id: '', created_at: new Date(), updated_at: new Date(), secret_sealed: ports.box.seal(newHookSecret()) }),
    fk_model_id: table.table.id, base_id: table.base.id, title: input.title, description: input.description ?? null, event: input.event,
    operation, notification: input.notification as HookRow['notification'], active: true, async: input.async, retries: 0,
    retry_interval: input.retry_interval, timeout: input.timeout, version: input.version, condition: input.condition,
    trigger_field: input.trigger_field, trigger_fields: input.trigger_fields,
  };
  const payload = body.payload ?? {};
  const user = { id: principal.id, email: principal.email };
  const { request, result } = await executeHook(ports, hook, randomUUID(), payload, user);
  if (stored) {
    await logAttempt(ports.db, {
      hook, deliveryId: null, attempt: 1, event: input.event, operation: Array.isArray(operation) ? operation.join(',') : operation,
      request, result, triggeredBy: principal.email ?? principal.id, testCall: true,
    });
  }
  if (!result.ok) throw appError('ERR_WEBHOOK_ERROR', `Webhook test failed: ${result.error ?? `HTTP ${result.status}`}`);
  return { msg: 'The hook has been tested successfully' };
}
