import { randomUUID } from 'node:crypto';
import type { HooksPorts } from '../ports';
import { insertDeliveries } from '../repositories/delivery.repository';
import { buildPayload } from './payload-builder';
import type { HookInScope } from './hook-access';

/**
 * Manual trigger of a hook whose base the caller may write data in (checked
 * by the guard; writing includes reading): the row is read through data's
 * internal API (404 when missing), then a `records.manual.trigger` delivery
 * is scheduled.
 */
export async function triggerHook(ports: HooksPorts, scope: HookInScope, rowId: string) {
  const { principal, value: hook } = scope;
  const { record } = await ports.data.readRecord({ params: { tableId: hook.fk_model_id, recordId: rowId } });
  const tableTitle = await tableTitleOf(ports, hook.fk_model_id);
  const payload = buildPayload(hook.version, {
    event: 'manual', operation: 'trigger', baseId: hook.base_id, tableId: hook.fk_model_id, tableTitle, rows: [record],
  });
  const id = randomUUID();
  await insertDeliveries(ports.db, [{
    id, hook_id: hook.id, event_id: id, event: 'manual', operation: 'trigger', payload, user: { id: principal.id, email: principal.email },
  }]);
  ports.wake.kick();
  return { msg: 'The hook has been triggered', delivery_id: id };
}

async function tableTitleOf(ports: HooksPorts, tableId: string): Promise<string> {
  const context = await ports.meta.tableContext({ params: { tableId } }).catch(() => undefined);
  return context?.table.title ?? tableId;
}
