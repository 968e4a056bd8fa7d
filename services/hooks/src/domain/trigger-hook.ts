import { randomUUID } from 'node:crypto';
import { AppError } from '@tabula/http';
import { signIdentity, type Principal } from '@tabula/auth';
import type { HooksPorts } from '../app';
import { insertDeliveries } from '../repositories/delivery.repository';
import { buildPayload } from './payload-builder';
import { requireHook } from './hook-access';

/**
 * Manual trigger: reads the row through the data service's public record path
 * with the caller's own identity (so the caller's read rights apply), then
 * schedules a `records.manual.trigger` delivery.
 */
export async function triggerHook(ports: HooksPorts, principal: Principal, hookId: string, rowId: string) {
  const hook = await requireHook(ports, principal, hookId, 'data.write');
  const path = `/api/v1/db/data/noco/${encodeURIComponent(hook.base_id)}/${encodeURIComponent(hook.fk_model_id)}/${encodeURIComponent(rowId)}`;
  const res = await ports.services.request<Record<string, unknown> & { error?: string; message?: string }>('data', {
    method: 'GET', path, headers: { 'x-tabula-identity': signIdentity(principal, ports.internalSecret) },
  });
  if (res.status !== 200) {
    throw new AppError(res.status, res.body?.error ?? 'ERR_RECORD_NOT_FOUND', res.body?.message ?? `Record '${rowId}' not found`);
  }
  const tableTitle = await tableTitleOf(ports, hook.fk_model_id);
  const payload = buildPayload(hook.version, {
    event: 'manual', operation: 'trigger', baseId: hook.base_id, tableId: hook.fk_model_id, tableTitle, rows: [res.body],
  });
  const id = randomUUID();
  await insertDeliveries(ports.db, [{
    id, hook_id: hook.id, event_id: id, event: 'manual', operation: 'trigger', payload, user: { id: principal.id, email: principal.email },
  }]);
  ports.wake.kick();
  return { msg: 'The hook has been triggered', delivery_id: id };
}

async function tableTitleOf(ports: HooksPorts, tableId: string): Promise<string> {
  const res = await ports.services.request<{ table: { title: string } }>('meta', { method: 'GET', path: `/internal/tables/${encodeURIComponent(tableId)}` });
  return res.status === 200 ? res.body.table.title : tableId;
}
