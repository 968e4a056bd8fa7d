import type { Knex } from 'knex';
import type { EndpointInput } from '@tabula/contracts';
import type { hooksCopy } from '@tabula/contracts';
import { publishHookChanged } from '../events/hook-changed.producer';
import type { HooksPorts } from '../ports';
import { newId } from '@tabula/db';
import { insertHook, type HookRow, deleteHooksOfTables as deleteRowsOfTables, hooksOfTables } from '../repositories/hook.repository';
import { announceHookChange } from '../cache/hook-changes';
import { filtersOfHooks, insertHookFilter, type HookFilterRow } from '../repositories/hook-filter.repository';

type CopyInput = EndpointInput<typeof hooksCopy>['body'];

/** Copies one hook's filter tree onto its copy, mapping ids (parents before children). */
async function copyFilters(trx: Knex, filters: HookFilterRow[], toHookId: string, columns: Record<string, string>): Promise<void> {
  const ids = new Map(filters.map((f) => [f.id, newId('fi')]));
  const ordered = [...filters].sort((a, b) => Number(!!a.fk_parent_id) - Number(!!b.fk_parent_id));
  for (const { created_at: _c, updated_at: _u, ...f } of ordered) {
    await insertHookFilter(trx, {
      ...f, id: ids.get(f.id)!, fk_hook_id: toHookId,
      fk_parent_id: f.fk_parent_id ? ids.get(f.fk_parent_id) ?? null : null,
      fk_column_id: f.fk_column_id ? columns[f.fk_column_id] ?? f.fk_column_id : null,
    });
  }
}

/**
 * Copies the hooks of each source table onto its duplicate, in one
 * transaction (all or none): same settings, same sealed signing secret, new
 * ids; filters and `trigger_fields` follow the column id map (titles stay).
 */
export async function copyHooks(ports: HooksPorts, input: CopyInput): Promise<{ copied: number }> {
  const target = new Map(input.tables.map((t) => [t.from, t.to]));
  if (!target.size) return { copied: 0 };
  const result = await ports.db.transaction(async (trx) => {
    const hooks: HookRow[] = await hooksOfTables(trx, [...target.keys()]);
    const filters = await filtersOfHooks(trx, hooks.map((h) => h.id));
    for (const hook of hooks) {
      const id = newId('hk');
      const { created_at: _c, updated_at: _u, ...rest } = hook;
      await insertHook(trx, {
        ...rest, id, fk_model_id: target.get(hook.fk_model_id)!, base_id: input.baseId,
        trigger_fields: hook.trigger_fields.map((f) => input.columns[f] ?? f),
      });
      await copyFilters(trx, filters.filter((f) => f.fk_hook_id === hook.id), id, input.columns);
    }
    return { copied: hooks.length };
  });
  await announceHookChange(ports.db, ports.hookCache, target.values());
  for (const tableId of target.values()) await publishHookChanged(ports, 'created', { baseId: input.baseId, tableId });
  return result;
}

/** Deletes every hook of some tables (filters, deliveries and logs cascade). */
export async function deleteHooksOfTables(ports: HooksPorts, tableIds: string[]): Promise<{ deleted: number }> {
  if (!tableIds.length) return { deleted: 0 };
  const deleted = await deleteRowsOfTables(ports.db, tableIds);
  // The base is unknown here: the tables are gone, only their ids matter to readers.
  if (deleted) for (const tableId of tableIds) await publishHookChanged(ports, 'deleted', { baseId: '', tableId });
  await announceHookChange(ports.db, ports.hookCache, tableIds);
  return { deleted };
}
