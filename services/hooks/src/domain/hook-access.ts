import { errors } from '@tabula/http';
import { roleAllows, type Principal } from '@tabula/auth';
import type { TableContext } from '@tabula/contracts';
import type { HooksPorts } from '../ports';
import { findHook, type HookRow } from '../repositories/hook.repository';
import { loadTable } from './table-context';

/** A table the caller may act on (the base role decides). */
export async function requireTable(ports: HooksPorts, principal: Principal, tableId: string, action: 'hook.write' | 'base.read' | 'data.write'): Promise<TableContext> {
  const table = await loadTable(ports, tableId);
  await ports.baseAccess.authorizeVisible(principal, table.base.id, action, () => errors.notFound('ERR_TABLE_NOT_FOUND', `Table '${tableId}' not found`));
  return table;
}

/** A hook the caller may act on; 404 ERR_HOOK_NOT_FOUND when missing. */
export async function requireHook(ports: HooksPorts, principal: Principal, hookId: string, action: 'hook.write' | 'base.read' | 'data.write'): Promise<HookRow> {
  const hook = await findHook(ports.db, hookId);
  const hidden = () => errors.notFound('ERR_HOOK_NOT_FOUND', `Hook '${hookId}' not found`);
  if (!hook) throw hidden();
  await ports.baseAccess.authorizeVisible(principal, hook.base_id, action, hidden);
  return hook;
}

/** Whether the caller may edit the base's hooks (and so read their secrets unmasked). */
export async function canEditHooks(ports: HooksPorts, principal: Principal, baseId: string): Promise<boolean> {
  const role = await ports.baseAccess.roleOf(principal, baseId);
  return role !== undefined && roleAllows(role, 'hook.write');
}
