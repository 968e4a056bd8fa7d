import { errors, type AccessScope, type AppError } from '@tabula/http';
import { roleAllows, type BaseRole, type ScopeResolvers } from '@tabula/auth';
import type { TableContext } from '@tabula/contracts';
import type { HooksPorts } from '../ports';
import { findHook, type HookRow } from '../repositories/hook.repository';
import { loadTable, tableNotFound } from './table-context';

/** A table the guard authorized (its base holds the declared permission), as meta describes it. */
export type TableInScope = AccessScope<TableContext>;
/** A hook the guard authorized, with the caller's role in its base. */
export type HookInScope = AccessScope<HookRow>;

/** 404 of a hook id (also another base's hook: no existence leak). */
export function hookNotFound(id: string): AppError {
  return errors.notFound('ERR_HOOK_NOT_FOUND', `Hook '${id}' not found`);
}

/**
 * What the hooks contracts are scoped by: a table (meta's table context) and
 * a hook (its base). The guard turns a caller without a role there into the
 * same 404 as a missing id.
 */
export function hookScopes(ports: HooksPorts): ScopeResolvers {
  return {
    table: {
      missing: (id) => tableNotFound(String(id)),
      resolve: async (_principal, id) => {
        const table = await loadTable(ports, String(id));
        return { baseId: table.base.id, value: table };
      },
    },
    hook: {
      missing: (id) => hookNotFound(String(id)),
      resolve: async (_principal, id) => {
        const hook = await findHook(ports.db, String(id));
        if (!hook) throw hookNotFound(String(id));
        return { baseId: hook.base_id, value: hook };
      },
    },
  };
}

/** Whether the caller may edit the base's hooks (and so read their secrets unmasked). */
export function canEditHooks(scope: AccessScope<unknown>): boolean {
  return roleAllows(scope.role as BaseRole | undefined, 'hook.write');
}
